import type ts from "typescript";
import { TS } from "../../typescript-host.js";
import {
  type Backend,
  type IndexInfo,
  type ProgramFile,
  SymbolFlag,
  type TsSignature,
  type TsSymbol,
  type TsType,
  type TupleElement,
  TypeFlag,
} from "../backend.js";
import type * as syntax from "../syntax.js";
import { ts5Syntax } from "./ts5-syntax.js";

// Compile-time proof that TypeScript 5's nodes have the shape the shared derivation reads.
type Fits<A extends B, B> = A;
export type Ts5NodesFit = [
  Fits<ts.SourceFile, syntax.SourceFile>,
  Fits<ts.CallExpression, syntax.CallExpression>,
  Fits<ts.Decorator, syntax.WrappingNode>,
  Fits<ts.ArrayLiteralExpression, syntax.ArrayLiteralExpression>,
  Fits<ts.ObjectLiteralExpression, syntax.ObjectLiteralExpression>,
  Fits<ts.PropertyAssignment, syntax.PropertyAssignment>,
  Fits<ts.FunctionDeclaration, syntax.FunctionLike>,
  Fits<ts.ArrowFunction, syntax.FunctionLike>,
  Fits<ts.MethodDeclaration, syntax.FunctionLike>,
  Fits<ts.VariableDeclaration, syntax.VariableDeclaration>,
  Fits<ts.ParameterDeclaration, syntax.ParameterDeclaration>,
  Fits<ts.ObjectBindingPattern, syntax.BindingPattern>,
  Fits<ts.BindingElement, syntax.BindingElement>,
  Fits<ts.PropertySignature, syntax.TypedMember>,
  Fits<ts.TypeReferenceNode, syntax.TypeReferenceNode>,
  Fits<ts.ArrayTypeNode, syntax.ArrayTypeNode>,
  Fits<ts.TupleTypeNode, syntax.TupleTypeNode>,
  Fits<ts.NamedTupleMember, syntax.NamedTupleMember>,
  Fits<ts.UnionTypeNode, syntax.UnionTypeNode>,
  Fits<ts.TypeAliasDeclaration, syntax.TypeAliasDeclaration>,
  Fits<ts.PrefixUnaryExpression, syntax.PrefixUnaryExpression>,
  Fits<ts.Identifier, syntax.TextNode>,
];

const type = (t: TsType) => t as unknown as ts.Type;
const symbol = (s: TsSymbol) => s as unknown as ts.Symbol;
const signature = (s: TsSignature) => s as unknown as ts.Signature;
const node = <N extends ts.Node = ts.Node>(n: syntax.Node) => n as unknown as N;
const asType = (t: ts.Type) => t as unknown as TsType;
const asSymbol = (s: ts.Symbol) => s as unknown as TsSymbol;
const asNode = (n: ts.Node) => n as unknown as syntax.Node;

/** TypeScript 5's `TypeFlags`, `ObjectFlags` and `SymbolFlags` in toolwright's bits. */
function typeFlagsOf(t: ts.Type): number {
  const F = TS.TypeFlags;
  const f = t.flags;
  let out = 0;
  if (f & F.Any) out |= TypeFlag.Any;
  if (f & F.Unknown) out |= TypeFlag.Unknown;
  if (f & F.String) out |= TypeFlag.String;
  if (f & F.Number) out |= TypeFlag.Number;
  if (f & F.Boolean) out |= TypeFlag.Boolean;
  if (f & F.BigIntLike) out |= TypeFlag.BigInt;
  if (f & F.ESSymbolLike) out |= TypeFlag.ESSymbol;
  if (f & F.Void) out |= TypeFlag.Void;
  if (f & F.Undefined) out |= TypeFlag.Undefined;
  if (f & F.Null) out |= TypeFlag.Null;
  if (f & F.Never) out |= TypeFlag.Never;
  if (f & F.StringLiteral) out |= TypeFlag.StringLiteral;
  if (f & F.NumberLiteral) out |= TypeFlag.NumberLiteral;
  if (f & F.BooleanLiteral) out |= TypeFlag.BooleanLiteral;
  if (f & F.EnumLiteral) out |= TypeFlag.EnumLiteral;
  if (f & F.TemplateLiteral) out |= TypeFlag.TemplateLiteral;
  if (f & F.TypeParameter) out |= TypeFlag.TypeParameter;
  if (f & F.Union) out |= TypeFlag.Union;
  if (f & F.Intersection) out |= TypeFlag.Intersection;
  if (f & F.Object) {
    out |= TypeFlag.Object;
    if ((t as ts.ObjectType).objectFlags & TS.ObjectFlags.Mapped) out |= TypeFlag.Mapped;
  }
  if (f & F.NonPrimitive) out |= TypeFlag.NonPrimitive;
  return out;
}

function symbolFlagsOf(s: ts.Symbol): number {
  const F = TS.SymbolFlags;
  let out = 0;
  if (s.flags & F.Optional) out |= SymbolFlag.Optional;
  if (s.flags & F.Class) out |= SymbolFlag.Class;
  if (s.flags & F.Interface) out |= SymbolFlag.Interface;
  if (s.flags & F.Method) out |= SymbolFlag.Method;
  if (s.flags & F.Alias) out |= SymbolFlag.Alias;
  if (s.flags & F.GetAccessor) out |= SymbolFlag.GetAccessor;
  if (s.flags & F.SetAccessor) out |= SymbolFlag.SetAccessor;
  return out;
}

function tupleElementOf(flags: ts.ElementFlags): TupleElement {
  const F = TS.ElementFlags;
  return flags & F.Required ? "required" : flags & F.Optional ? "optional" : flags & F.Rest ? "rest" : "variadic";
}

/**
 * The module names a file refers to, as TypeScript collected them while building the
 * Program: import and export declarations, `import x = require()`, `import()` calls and
 * types, and `require()` in JavaScript. The list is internal to TypeScript 5 (there since
 * 2.x); without it nothing is known.
 */
function moduleNamesOf(file: ts.SourceFile): readonly ts.Node[] | undefined {
  const imports = (file as { imports?: unknown }).imports;
  return Array.isArray(imports) ? (imports as ts.Node[]) : undefined;
}

/** The TypeScript 5.9 backend: questions answered by a Program's in-process checker. */
export class Ts5Backend implements Backend {
  readonly syntax: syntax.Syntax = ts5Syntax(TS);
  readonly version: string = TS.version;
  readonly checker: ts.TypeChecker;

  constructor(readonly program: ts.Program) {
    this.checker = program.getTypeChecker();
  }

  currentDirectory(): string {
    return this.program.getCurrentDirectory();
  }

  programFiles(): readonly ProgramFile[] {
    return this.program.getSourceFiles().map((file) => ({
      fileName: file.fileName,
      isDefaultLibrary: this.program.isSourceFileDefaultLibrary(file),
      isExternalLibrary: this.program.isSourceFileFromExternalLibrary(file),
    }));
  }

  sourceFile(fileName: string): syntax.SourceFile | undefined {
    const file = this.program.getSourceFile(fileName);
    return file;
  }

  isDefaultLibraryFile(fileName: string): boolean {
    return this.program.getSourceFile(fileName)?.hasNoDefaultLib ?? false;
  }

  fileText(fileName: string): string | undefined {
    return this.program.getSourceFile(fileName)?.text;
  }

  moduleTargets(fileNames: readonly string[]): ReadonlyMap<string, readonly string[] | undefined> {
    const out = new Map<string, readonly string[] | undefined>();
    for (const fileName of fileNames) {
      const file = this.program.getSourceFile(fileName);
      const names = file && moduleNamesOf(file);
      if (!names) {
        out.set(fileName, undefined);
        continue;
      }
      const targets: string[] = [];
      for (const name of names) {
        for (const declaration of this.checker.getSymbolAtLocation(name)?.declarations ?? []) {
          targets.push(declaration.getSourceFile().fileName);
        }
      }
      out.set(fileName, targets);
    }
    return out;
  }

  declaresGlobals(file: syntax.SourceFile): boolean {
    const source = node<ts.SourceFile>(file);
    return (
      !TS.isExternalModule(source) ||
      source.statements.some(
        (s) =>
          TS.isModuleDeclaration(s) &&
          (TS.isStringLiteral(s.name) || (s.flags & TS.NodeFlags.GlobalAugmentation) !== 0),
      )
    );
  }

  typeFlags(t: TsType): number {
    return typeFlagsOf(type(t));
  }

  typeMembers(t: TsType): readonly TsType[] {
    const native = type(t);
    return native.isUnionOrIntersection() ? (native.types as unknown as readonly TsType[]) : [];
  }

  literalValue(t: TsType): string | number | boolean | undefined {
    const native = type(t);
    if (native.isStringLiteral() || native.isNumberLiteral()) return native.value;
    if (native.flags & TS.TypeFlags.BooleanLiteral) return this.checker.typeToString(native) === "true";
    return undefined;
  }

  templateParts(t: TsType): { readonly texts: readonly string[]; readonly types: readonly TsType[] } {
    const native = type(t) as ts.TemplateLiteralType;
    return { texts: native.texts, types: native.types as unknown as readonly TsType[] };
  }

  typeToString(t: TsType): string {
    return this.checker.typeToString(type(t));
  }

  annotationText(t: TsType, at: syntax.Node): string {
    return this.checker.typeToString(type(t), node(at), TS.TypeFormatFlags.NoTruncation);
  }

  symbolOfType(t: TsType): TsSymbol | undefined {
    const s = type(t).getSymbol();
    return s && asSymbol(s);
  }

  aliasOfType(t: TsType): TsSymbol | undefined {
    const s = type(t).aliasSymbol;
    return s && asSymbol(s);
  }

  isArrayType(t: TsType): boolean {
    return this.checker.isArrayType(type(t));
  }

  isTupleType(t: TsType): boolean {
    return this.checker.isTupleType(type(t));
  }

  tupleElements(t: TsType): readonly TupleElement[] {
    return ((type(t) as ts.TypeReference).target as ts.TupleType).elementFlags.map(tupleElementOf);
  }

  typeArguments(t: TsType): readonly TsType[] {
    return this.checker.getTypeArguments(type(t) as ts.TypeReference) as unknown as readonly TsType[];
  }

  propertiesOfType(t: TsType): readonly TsSymbol[] {
    return this.checker.getPropertiesOfType(type(t)) as unknown as readonly TsSymbol[];
  }

  baseTypes(t: TsType): readonly TsType[] {
    const native = type(t);
    if (!(native.flags & TS.TypeFlags.Object)) return [];
    // `List<string>` is a reference to the generic interface: its bases are the target's.
    const objectFlags = (native as ts.ObjectType).objectFlags;
    const declared = objectFlags & TS.ObjectFlags.Reference ? (native as ts.TypeReference).target : native;
    const isClassOrInterface =
      (declared as ts.ObjectType).objectFlags & (TS.ObjectFlags.Class | TS.ObjectFlags.Interface);
    return isClassOrInterface
      ? (this.checker.getBaseTypes(declared as ts.InterfaceType) as unknown as readonly TsType[])
      : [];
  }

  indexInfosOfType(t: TsType): readonly IndexInfo[] {
    return this.checker
      .getIndexInfosOfType(type(t))
      .map((info) => ({ keyType: asType(info.keyType), valueType: asType(info.type) }));
  }

  signaturesOfType(t: TsType, kind: "call" | "construct"): readonly TsSignature[] {
    const which = kind === "call" ? TS.SignatureKind.Call : TS.SignatureKind.Construct;
    return this.checker.getSignaturesOfType(type(t), which) as unknown as readonly TsSignature[];
  }

  baseTypeOfLiteral(t: TsType): TsType {
    return asType(this.checker.getBaseTypeOfLiteralType(type(t)));
  }

  typeFromTypeNode(typeNode: syntax.TypeNode): TsType {
    return asType(this.checker.getTypeFromTypeNode(node<ts.TypeNode>(typeNode)));
  }

  typeAtLocation(at: syntax.Node): TsType {
    return asType(this.checker.getTypeAtLocation(node(at)));
  }

  knownTypeAt(): TsType | undefined {
    return undefined;
  }

  contextualType(at: syntax.Node): TsType | undefined {
    const t = this.checker.getContextualType(node<ts.Expression>(at));
    return t && asType(t);
  }

  symbolName(s: TsSymbol): string {
    return symbol(s).getName();
  }

  escapedName(s: TsSymbol): string {
    return symbol(s).escapedName as string;
  }

  symbolFlags(s: TsSymbol): number {
    return symbolFlagsOf(symbol(s));
  }

  declarations(s: TsSymbol): readonly syntax.Node[] {
    return (symbol(s).declarations ?? []) as unknown as readonly syntax.Node[];
  }

  declarationFiles(s: TsSymbol): readonly string[] {
    return (symbol(s).declarations ?? []).map((d) => d.getSourceFile().fileName);
  }

  valueDeclaration(s: TsSymbol): syntax.Node | undefined {
    const d = symbol(s).valueDeclaration;
    return d && asNode(d);
  }

  typeOfSymbol(s: TsSymbol): TsType {
    return asType(this.checker.getTypeOfSymbol(symbol(s)));
  }

  typesOfSymbols(symbols: readonly TsSymbol[]): readonly TsType[] {
    return symbols.map((s) => this.typeOfSymbol(s));
  }

  aliasedSymbol(s: TsSymbol): TsSymbol {
    return asSymbol(this.checker.getAliasedSymbol(symbol(s)));
  }

  symbolAtLocation(at: syntax.Node): TsSymbol | undefined {
    const s = this.checker.getSymbolAtLocation(node(at));
    return s && asSymbol(s);
  }

  resolvedSignature(call: syntax.Node): TsSignature | undefined {
    const s = this.checker.getResolvedSignature(node<ts.CallLikeExpression>(call));
    return s && (s as unknown as TsSignature);
  }

  signatureOfDeclaration(declaration: syntax.Node): TsSignature | undefined {
    const s = this.checker.getSignatureFromDeclaration(node<ts.SignatureDeclaration>(declaration));
    return s && (s as unknown as TsSignature);
  }

  signatureDeclaration(s: TsSignature): syntax.Node | undefined {
    const d = signature(s).getDeclaration();
    return d && asNode(d);
  }

  signatureParameters(s: TsSignature): readonly TsSymbol[] {
    return signature(s).parameters as unknown as readonly TsSymbol[];
  }

  returnTypeOfSignature(s: TsSignature): TsType {
    return asType(this.checker.getReturnTypeOfSignature(signature(s)));
  }

  prefetch(): void {
    // The checker is in-process: nothing to fetch ahead.
  }

  prefetchLocations(): void {
    // As prefetch: asking early would only change the order the checker creates types in.
  }
}
