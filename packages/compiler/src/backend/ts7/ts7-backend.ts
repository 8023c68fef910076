import { readFileSync } from "node:fs";
import { basename, dirname } from "node:path";
import type * as Ast from "typescript-7/unstable/ast";
import type * as Sync from "typescript-7/unstable/sync";
import { type PrintedDiagnostic, printedCategory } from "../../cli/report.js";
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
import { isScriptFileName } from "../script-file-name.js";
import type * as syntax from "../syntax.js";
import type { Ts7Modules } from "./ts7-api.js";
import { ts7Syntax } from "./ts7-syntax.js";

const type = (t: TsType) => t as unknown as Sync.Type;
const symbol = (s: TsSymbol) => s as unknown as Sync.Symbol;
const signature = (s: TsSignature) => s as unknown as Sync.Signature;
const node = <N extends Ast.Node = Ast.Node>(n: syntax.Node) => n as unknown as N;
const asType = (t: Sync.Type) => t as unknown as TsType;
const asSymbol = (s: Sync.Symbol) => s as unknown as TsSymbol;
const asNode = (n: Ast.Node) => n as unknown as syntax.Node;

/** A TypeScript library file's name (`lib.es2022.d.ts`). */
const LIB_FILE = /^lib\.[\w.-]*d\.ts$/;
/** A file of an installed package. */
const EXTERNAL = /[\\/]node_modules[\\/]/;

/** The names intrinsic types print as, each its own keyword. */
const INTRINSIC_NAMES = new Set([
  "string",
  "number",
  "bigint",
  "symbol",
  "void",
  "undefined",
  "null",
  "never",
  "unknown",
]);

/** How many levels of a type tree {@link Ts7Backend.prefetch} fetches ahead. */
const PREFETCH_DEPTH = 12;

/** A cache of one question's answers: the client keeps objects by id, not answers. */
function memo<K, V>(answers = new Map<K, V>()): (key: K, compute: () => V) => V {
  return (key, compute) => {
    // One lookup for an answer known (most calls); `has` tells an undefined answer from none.
    const known = answers.get(key);
    if (known !== undefined || answers.has(key)) return known as V;
    const value = compute();
    answers.set(key, value);
    return value;
  };
}

/**
 * A function's signature read off its declaration (see {@link Ts7Backend.signatureOfDeclaration}):
 * what the checker's would answer, its parameters being the symbols at their names and its
 * return type its annotation's. The checker's own is asked only where those say too little
 * (no return annotation, a type predicate, a name with no symbol).
 */
class WrittenSignature {
  asked: Sync.Signature | undefined;
  constructor(
    readonly declaration: Ast.FunctionDeclaration | Ast.ArrowFunction | Ast.FunctionExpression | Ast.MethodDeclaration,
    readonly names: readonly Ast.Identifier[],
  ) {}
}

/**
 * The TypeScript 7 backend: questions answered by one project of a snapshot of TypeScript
 * 7's API process (`typescript/unstable/sync`, over IPC). Every answer is kept, by the
 * client's objects (which it keeps by id), so a question crosses the process boundary
 * once; {@link prefetch} walks the type trees the derivation will read breadth-first, with
 * one request for the types of all the properties met at each depth.
 */
export class Ts7Backend implements Backend {
  readonly syntax: syntax.Syntax;
  readonly version: string;
  private readonly checker: Sync.Checker;
  private readonly program: Sync.Program;
  private readonly T: typeof Sync.TypeFlags;
  private readonly O: typeof Sync.ObjectFlags;
  private readonly S: typeof Sync.SymbolFlags;
  private readonly E: typeof Sync.ElementFlags;
  private readonly files = new Map<string, Ast.SourceFile | undefined>();
  private readonly texts = new Map<string, string | undefined>();
  private fileNames: Map<string, string> | undefined;
  private allFiles: readonly ProgramFile[] | undefined;
  private lowerCased: Map<string, string> | undefined;
  private anyType: Sync.Type | undefined;
  // One cache per question, keyed by the client's objects.
  private readonly flagsOf = memo<Sync.Type, number>();
  private readonly membersOf = memo<Sync.Type, readonly TsType[]>();
  private readonly stringOf = memo<Sync.Type, string>();
  private readonly symbolsOfTypes = new Map<Sync.Type, TsSymbol | undefined>();
  private readonly symbolOf = memo<Sync.Type, TsSymbol | undefined>(this.symbolsOfTypes);
  private readonly aliasOf = memo<Sync.Type, TsSymbol | undefined>();
  private readonly arrayTargets = memo<Sync.Type, boolean>();
  private readonly tupleTargets = memo<Sync.Type, boolean>();
  private readonly argumentsOf = memo<Sync.Type, readonly TsType[]>();
  private readonly propertiesOf = memo<Sync.Type, readonly TsSymbol[]>();
  private readonly basesOf = memo<Sync.Type, readonly TsType[]>();
  private readonly indexesOf = memo<Sync.Type, readonly IndexInfo[]>();
  private readonly callsOf = memo<Sync.Type, readonly TsSignature[]>();
  private readonly constructsOf = memo<Sync.Type, readonly TsSignature[]>();
  private readonly baseOf = memo<Sync.Type, TsType>();
  private readonly typeAnswers = new Map<Ast.Node, TsType>();
  private readonly symbolAnswers = new Map<Ast.Node, TsSymbol | undefined>();
  private readonly nodeTypes = memo<Ast.Node, TsType>(this.typeAnswers);
  private readonly nodeSymbols = memo<Ast.Node, TsSymbol | undefined>(this.symbolAnswers);
  private readonly contextualOf = memo<Ast.Node, TsType | undefined>();
  private readonly typeNodeAnswers = new Map<Ast.Node, TsType>();
  private readonly typeNodes = memo<Ast.Node, TsType>(this.typeNodeAnswers);
  /** Files whose written union members were asked in one request (see {@link askWrittenTypesOf}). */
  private readonly sweptFiles = new Set<Ast.SourceFile>();
  private readonly declaredMembers = memo<Sync.Type, readonly Ast.Node[] | undefined>();
  private readonly propertyNames = memo<Sync.Type, readonly Ast.Node[] | undefined>();
  private readonly symbolTypes = new Map<Sync.Symbol, TsType>();
  private readonly aliased = memo<Sync.Symbol, TsSymbol>();
  private readonly exportTables = memo<Sync.Symbol, ReadonlyMap<string, Sync.Symbol>>();
  private readonly declarationsOf = memo<Sync.Symbol, readonly syntax.Node[]>();
  private readonly resolved = memo<Ast.Node, TsSignature | undefined>();
  private readonly declared = memo<Ast.Node, TsSignature | undefined>();
  private readonly parametersOf = memo<Sync.Signature, readonly TsSymbol[]>();
  private readonly returnsOf = memo<Sync.Signature, TsType>();
  /** Call signatures of a type that is no union: their own declaration's, unless instantiated (see {@link writtenReturnType}). */
  private readonly declaredSignatures = new Set<Sync.Signature>();
  private libraryFiles: ReadonlySet<string> | undefined;

  constructor(
    private readonly modules: Ts7Modules,
    private readonly project: Sync.Project,
    private readonly cwd: string,
    /** Texts the API process reads instead of the disk's (see `FileOverlay`). */
    private readonly overlay?: (fileName: string) => string | undefined,
  ) {
    this.syntax = ts7Syntax(modules);
    this.version = modules.version;
    this.checker = project.checker;
    this.program = project.program;
    this.T = modules.sync.TypeFlags;
    this.O = modules.sync.ObjectFlags;
    this.S = modules.sync.SymbolFlags;
    this.E = modules.sync.ElementFlags;
  }

  currentDirectory(): string {
    return this.cwd;
  }

  programFiles(): readonly ProgramFile[] {
    // The API answers "default library?" and "installed package?" one request per file
    // (hundreds with @types/node). Files under node_modules are installed packages and the
    // project's own files neither; a folder of lib.*.d.ts files is the default library if
    // one of them is. Only files elsewhere (a workspace package linked in) are asked.
    if (!this.allFiles) {
      const roots = new Set(this.project.rootFiles);
      const libraryFolders = memo<string, boolean>();
      this.allFiles = [...this.byPath().values()].map((fileName): ProgramFile => {
        if (roots.has(fileName)) return { fileName, isDefaultLibrary: false, isExternalLibrary: false };
        const folder = dirname(fileName);
        if (LIB_FILE.test(basename(fileName)) && libraryFolders(folder, () => this.askLibrary(fileName))) {
          return { fileName, isDefaultLibrary: true, isExternalLibrary: false };
        }
        if (EXTERNAL.test(fileName)) return { fileName, isDefaultLibrary: false, isExternalLibrary: true };
        const metadata = this.program.getSourceFileMetadata(fileName);
        return {
          fileName,
          isDefaultLibrary: metadata?.isDefaultLibrary ?? false,
          isExternalLibrary: metadata?.isFromExternalLibrary ?? false,
        };
      });
    }
    return this.allFiles;
  }

  private askLibrary(fileName: string): boolean {
    return this.program.getSourceFileMetadata(fileName)?.isDefaultLibrary ?? false;
  }

  sourceFile(fileName: string): syntax.SourceFile | undefined {
    if (!this.files.has(fileName)) this.files.set(fileName, this.program.getSourceFile(fileName));
    const file = this.files.get(fileName);
    return file && (file as unknown as syntax.SourceFile);
  }

  isDefaultLibraryFile(fileName: string): boolean {
    if (!this.libraryFiles) {
      const files = this.programFiles();
      this.libraryFiles = new Set(files.filter((f) => f.isDefaultLibrary).map((f) => f.fileName));
    }
    return this.libraryFiles.has(this.fileNameOf(fileName) ?? fileName);
  }

  fileText(fileName: string): string | undefined {
    if (!this.texts.has(fileName)) {
      let text = this.overlay?.(fileName);
      if (text === undefined) {
        try {
          // From disk, like the compiler read it: fetching and decoding a whole AST only to
          // search its text would cost far more.
          text = readFileSync(fileName, "utf8");
        } catch {
          text = this.sourceFile(fileName)?.text;
        }
      }
      this.texts.set(fileName, text);
    }
    return this.texts.get(fileName);
  }

  moduleTargets(fileNames: readonly string[]): ReadonlyMap<string, readonly string[] | undefined> {
    const owners: string[] = [];
    const names: Ast.Node[] = [];
    for (const fileName of fileNames) {
      for (const name of (this.sourceFile(fileName) as unknown as Ast.SourceFile | undefined)?.imports ?? []) {
        owners.push(fileName);
        names.push(name);
      }
    }
    // Every module reference of every file in one request.
    this.askSymbolsAt(names);
    const out = new Map<string, string[]>(fileNames.map((f) => [f, []]));
    names.forEach((name, i) => {
      const found = this.symbolAnswers.get(name);
      for (const declaration of found ? symbol(found).declarations : []) {
        const file = this.fileNameOf(declaration.path);
        if (file !== undefined) out.get(owners[i] as string)?.push(file);
      }
    });
    return out;
  }

  declaresGlobals(file: syntax.SourceFile): boolean {
    const source = node<Ast.SourceFile>(file);
    const { is } = this.modules;
    return (
      source.externalModuleIndicator === undefined ||
      source.statements.some(
        (s) =>
          is.isModuleDeclaration(s) &&
          (is.isStringLiteral(s.name) || (is.isIdentifier(s.name) && s.name.text === "global")),
      )
    );
  }

  typeFlags(t: TsType): number {
    const native = type(t);
    return this.flagsOf(native, () => this.mapTypeFlags(native));
  }

  typeMembers(t: TsType): readonly TsType[] {
    const native = type(t);
    return this.membersOf(native, () =>
      native.flags & (this.T.Union | this.T.Intersection)
        ? ((native as Sync.UnionOrIntersectionType).getTypes() as unknown as TsType[])
        : [],
    );
  }

  literalValue(t: TsType): string | number | boolean | undefined {
    const native = type(t);
    if (native.flags & (this.T.StringLiteral | this.T.NumberLiteral | this.T.BooleanLiteral)) {
      const value = (native as Sync.LiteralType).value;
      return typeof value === "bigint" ? undefined : value;
    }
    return undefined;
  }

  templateParts(t: TsType): { readonly texts: readonly string[]; readonly types: readonly TsType[] } {
    const native = type(t) as Sync.TemplateLiteralType;
    return { texts: native.texts, types: native.getTypes() as unknown as TsType[] };
  }

  typeToString(t: TsType): string {
    const native = type(t);
    return this.stringOf(native, () => this.intrinsicText(native) ?? this.checker.typeToString(native));
  }

  annotationText(t: TsType, at: syntax.Node): string {
    return this.checker.typeToString(type(t), node(at), this.modules.sync.NodeBuilderFlags.NoTruncation);
  }

  symbolOfType(t: TsType): TsSymbol | undefined {
    const native = type(t);
    return this.symbolOf(native, () => {
      const s = native.getSymbol();
      return s && asSymbol(s);
    });
  }

  aliasOfType(t: TsType): TsSymbol | undefined {
    const native = type(t);
    return this.aliasOf(native, () => {
      const s = native.getAliasSymbol();
      return s && asSymbol(s);
    });
  }

  // An array or a tuple is a reference to the global Array (or ReadonlyArray) or to a tuple
  // target: the answer is its target's, asked once per target.
  isArrayType(t: TsType): boolean {
    const reference = this.referenceOf(t);
    return (
      reference !== undefined && this.arrayTargets(reference.getTarget(), () => this.checker.isArrayType(reference))
    );
  }

  isTupleType(t: TsType): boolean {
    const reference = this.referenceOf(t);
    return (
      reference !== undefined && this.tupleTargets(reference.getTarget(), () => this.checker.isTupleType(reference))
    );
  }

  tupleElements(t: TsType): readonly TupleElement[] {
    const E = this.E;
    return ((type(t) as Sync.TypeReference).getTarget() as unknown as Sync.TupleType).elementFlags.map(
      (f): TupleElement =>
        f & E.Required ? "required" : f & E.Optional ? "optional" : f & E.Rest ? "rest" : "variadic",
    );
  }

  typeArguments(t: TsType): readonly TsType[] {
    const native = type(t);
    return this.argumentsOf(
      native,
      () => this.checker.getTypeArguments(native as Sync.TypeReference) as unknown as TsType[],
    );
  }

  propertiesOfType(t: TsType): readonly TsSymbol[] {
    const native = type(t);
    return this.propertiesOf(
      native,
      () => this.declaredProperties(native) ?? (this.checker.getPropertiesOfType(native) as unknown as TsSymbol[]),
    );
  }

  /**
   * The properties of an interface or type literal that is no instantiation, read off its
   * declarations: the symbols at its members' names, in the order declared (getPropertiesOfType
   * has no batch form; getSymbolAtLocation has, and {@link prefetch} asks a level's names at
   * once). Undefined where the declarations may not list them all (see {@link declaredPropertyNames}).
   */
  private declaredProperties(t: Sync.Type): TsSymbol[] | undefined {
    const names = this.declaredPropertyNames(t);
    if (!names) return undefined;
    this.askSymbolsAt(names);
    // Overloaded methods, a getter with its setter and merged declarations share a symbol.
    const found = new Set<TsSymbol>();
    for (const name of names) {
      const s = this.symbolAnswers.get(name);
      if (!s) return undefined;
      found.add(s);
    }
    return [...found];
  }

  /**
   * The names of the properties a type's declarations list, when those are all its
   * properties: an interface extending nothing and with no type parameters, or a type literal
   * not instantiated from a generic (whose properties are new symbols of instantiated types),
   * every member named by an identifier or a literal. Call, construct and index signatures
   * are no properties.
   */
  private declaredPropertyNames(t: Sync.Type): readonly Ast.Node[] | undefined {
    if (!(t.flags & this.T.Object)) return undefined;
    // Asked by the prefetch walk, then by propertiesOfType: worked out once.
    return this.propertyNames(t, () => {
      const O = this.O;
      const objectFlags = (t as Sync.ObjectType).objectFlags;
      // An instantiation (`Box<number>`, `Item[]`) is the checker's, before its symbol is asked.
      if (objectFlags & (O.Reference | O.Instantiated) || !(objectFlags & (O.Interface | O.Anonymous)))
        return undefined;
      // Its symbol, which the alternative (getPropertiesOfType) would cost as much as.
      this.symbolOfType(asType(t));
      const members = this.declaredMembersOf(t);
      if (!members) return undefined;
      const { is } = this.modules;
      const names: Ast.Node[] = [];
      for (const member of members) {
        if (is.isCallSignatureDeclaration(member) || is.isConstructSignatureDeclaration(member)) continue;
        if (is.isIndexSignatureDeclaration(member)) continue;
        if (
          !(
            is.isPropertySignatureDeclaration(member) ||
            is.isMethodSignatureDeclaration(member) ||
            is.isGetAccessorDeclaration(member) ||
            is.isSetAccessorDeclaration(member)
          )
        )
          return undefined;
        const name = member.name;
        if (!(is.isIdentifier(name) || is.isStringLiteral(name) || is.isNumericLiteral(name))) return undefined;
        names.push(name);
      }
      return names;
    });
  }

  baseTypes(t: TsType): readonly TsType[] {
    const native = type(t);
    if (!(native.flags & this.T.Object)) return [];
    // `List<string>` is a reference to the generic interface: its bases are the target's.
    const reference = this.referenceOf(t);
    const declared = (reference ? reference.getTarget() : native) as Sync.InterfaceType;
    return this.basesOf(declared, () =>
      declared.objectFlags & (this.O.Class | this.O.Interface) && this.declaredMembersOf(declared) === undefined
        ? (this.checker.getBaseTypes(declared) as unknown as TsType[])
        : [],
    );
  }

  indexInfosOfType(t: TsType): readonly IndexInfo[] {
    const native = type(t);
    return this.indexesOf(native, () =>
      this.declaresNo(native, this.modules.ast.SyntaxKind.IndexSignature)
        ? []
        : this.checker
            .getIndexInfosOfType(native)
            .map((info) => ({ keyType: asType(info.keyType), valueType: asType(info.valueType) })),
    );
  }

  signaturesOfType(t: TsType, kind: "call" | "construct"): readonly TsSignature[] {
    const native = type(t);
    const { SignatureKind } = this.modules.sync;
    const K = this.modules.ast.SyntaxKind;
    // An instantiation (`Array<Line>`) has one signature per signature of its generic
    // target: a target with none answers for every instantiation of it.
    const reference = this.referenceOf(t);
    const target = reference?.getTarget();
    const noneThrough = (s: "call" | "construct") =>
      target !== undefined && target !== native && this.signaturesOfType(asType(target), s).length === 0;
    return kind === "call"
      ? this.callsOf(native, () => {
          if (this.declaresNo(native, K.CallSignature) || noneThrough("call")) return [];
          const found = this.checker.getSignaturesOfType(native, SignatureKind.Call);
          // A union's signatures are made of its members' (their return types united).
          if (!(native.flags & this.T.Union)) for (const s of found) this.declaredSignatures.add(s);
          return found as unknown as TsSignature[];
        })
      : this.constructsOf(native, () =>
          this.declaresNo(native, K.ConstructSignature) || noneThrough("construct")
            ? []
            : (this.checker.getSignaturesOfType(native, SignatureKind.Construct) as unknown as TsSignature[]),
        );
  }

  baseTypeOfLiteral(t: TsType): TsType {
    const native = type(t);
    return this.baseOf(native, () => asType(this.checker.getBaseTypeOfLiteralType(native) ?? native));
  }

  typeFromTypeNode(typeNode: syntax.TypeNode): TsType {
    const native = node<Ast.TypeNode>(typeNode);
    if (!this.typeNodeAnswers.has(native)) this.askWrittenTypesOf(native.getSourceFile());
    return this.typeNodes(native, () => asType(this.checker.getTypeFromTypeNode(native) ?? this.any()));
  }

  typeAtLocation(at: syntax.Node): TsType {
    const native = node(at);
    return this.nodeTypes(native, () => asType(this.checker.getTypeAtLocation(native) ?? this.any()));
  }

  knownTypeAt(at: syntax.Node): TsType | undefined {
    return this.typeAnswers.get(node(at));
  }

  contextualType(at: syntax.Node): TsType | undefined {
    const native = node<Ast.Expression>(at);
    return this.contextualOf(native, () => {
      const t = this.checker.getContextualType(native);
      return t && asType(t);
    });
  }

  symbolName(s: TsSymbol): string {
    return symbol(s).name;
  }

  escapedName(s: TsSymbol): string {
    return symbol(s).escapedName;
  }

  symbolFlags(s: TsSymbol): number {
    const f = symbol(s).flags;
    const S = this.S;
    let out = 0;
    if (f & S.Optional) out |= SymbolFlag.Optional;
    if (f & S.Class) out |= SymbolFlag.Class;
    if (f & S.Interface) out |= SymbolFlag.Interface;
    if (f & S.Method) out |= SymbolFlag.Method;
    if (f & S.Alias) out |= SymbolFlag.Alias;
    if (f & S.GetAccessor) out |= SymbolFlag.GetAccessor;
    if (f & S.SetAccessor) out |= SymbolFlag.SetAccessor;
    return out;
  }

  declarations(s: TsSymbol): readonly syntax.Node[] {
    const native = symbol(s);
    return this.declarationsOf(native, () =>
      native.declarations.flatMap((handle) => {
        const found = handle.resolve(this.project);
        return found ? [asNode(found)] : [];
      }),
    );
  }

  declarationFiles(s: TsSymbol): readonly string[] {
    return symbol(s).declarations.flatMap((handle) => this.fileNameOf(handle.path) ?? []);
  }

  valueDeclaration(s: TsSymbol): syntax.Node | undefined {
    const found = symbol(s).valueDeclaration?.resolve(this.project);
    return found && asNode(found);
  }

  typeOfSymbol(s: TsSymbol): TsType {
    return this.typesOfSymbols([s])[0] as TsType;
  }

  typesOfSymbols(symbols: readonly TsSymbol[]): readonly TsType[] {
    const missing = [...new Set(symbols.map(symbol).filter((s) => !this.symbolTypes.has(s)))];
    if (missing.length > 0) {
      // One request for every symbol not asked before.
      const types = this.checker.getTypeOfSymbol(missing);
      missing.forEach((s, i) => {
        const t = types[i];
        this.symbolTypes.set(s, asType(t ?? this.any()));
      });
    }
    return symbols.map((s) => this.symbolTypes.get(symbol(s)) as TsType);
  }

  aliasedSymbol(s: TsSymbol): TsSymbol {
    const native = symbol(s);
    return this.aliased(native, () => this.importedExport(native) ?? asSymbol(this.checker.getAliasedSymbol(native)));
  }

  symbolAtLocation(at: syntax.Node): TsSymbol | undefined {
    const native = node(at);
    const { is } = this.modules;
    if (!this.symbolAnswers.has(native) && native.parent && is.isTypeReferenceNode(native.parent)) {
      this.askWrittenTypesOf(native.getSourceFile());
    }
    return this.nodeSymbols(native, () => {
      const s = this.checker.getSymbolAtLocation(native);
      return s && asSymbol(s);
    });
  }

  resolvedSignature(call: syntax.Node): TsSignature | undefined {
    const native = node(call);
    return this.resolved(native, () => this.checker.getResolvedSignature(native) as unknown as TsSignature | undefined);
  }

  /**
   * A function's signature is what its declaration writes, with no request (the checker's
   * getSignatureFromDeclaration is one per declaration): its parameters are the symbols at
   * their names, asked in batches ({@link prefetchLocations}), and its return type is its
   * annotation's. Left to the checker: a JavaScript file's functions (JSDoc and `arguments`
   * give them more than they write), a destructured or `this` parameter (no name to ask),
   * and any declaration other than a function, arrow, function expression or method.
   */
  signatureOfDeclaration(declaration: syntax.Node): TsSignature | undefined {
    const native = node(declaration);
    return this.declared(
      native,
      () =>
        this.writtenSignature(native) ??
        (this.checker.getSignatureFromDeclaration(native) as unknown as TsSignature | undefined),
    );
  }

  signatureDeclaration(s: TsSignature): syntax.Node | undefined {
    if (s instanceof WrittenSignature) return asNode(s.declaration);
    const found = signature(s).declaration?.resolve(this.project);
    return found && asNode(found);
  }

  signatureParameters(s: TsSignature): readonly TsSymbol[] {
    if (s instanceof WrittenSignature) {
      this.askSymbolsAt(s.names);
      const found = s.names.map((name) => this.symbolAnswers.get(name));
      return found.every((p) => p !== undefined) ? found : this.signatureParameters(this.askedSignature(s));
    }
    const native = signature(s);
    return this.parametersOf(native, () => native.getParameters() as unknown as TsSymbol[]);
  }

  returnTypeOfSignature(s: TsSignature): TsType {
    if (s instanceof WrittenSignature) {
      const written = this.returnAnnotation(s.declaration);
      return written
        ? this.typeFromTypeNode(asNode(written) as syntax.TypeNode)
        : this.returnTypeOfSignature(this.askedSignature(s));
    }
    const native = signature(s);
    return this.returnsOf(native, () => {
      const written = this.writtenReturnType(native);
      return written
        ? this.typeFromTypeNode(asNode(written) as syntax.TypeNode)
        : asType(this.checker.getReturnTypeOfSignature(native) ?? this.any());
    });
  }

  /** A function, arrow, function expression or method: the declarations whose written signature the checker takes as is. */
  private isWrittenFunction(declaration: Ast.Node): declaration is WrittenSignature["declaration"] {
    const { is } = this.modules;
    return (
      is.isFunctionDeclaration(declaration) ||
      is.isArrowFunction(declaration) ||
      is.isFunctionExpression(declaration) ||
      is.isMethodDeclaration(declaration)
    );
  }

  private writtenSignature(declaration: Ast.Node): TsSignature | undefined {
    if (!this.isWrittenFunction(declaration) || isScriptFileName(declaration.getSourceFile().fileName))
      return undefined;
    const { is } = this.modules;
    const names: Ast.Identifier[] = [];
    for (const parameter of declaration.parameters) {
      if (!is.isIdentifier(parameter.name) || parameter.name.text === "this") return undefined;
      names.push(parameter.name);
    }
    return new WrittenSignature(declaration, names) as unknown as TsSignature;
  }

  /** The checker's signature of a declaration read as a {@link WrittenSignature}: asked once, when that is not enough. */
  private askedSignature(s: WrittenSignature): TsSignature {
    s.asked ??= this.checker.getSignatureFromDeclaration(s.declaration);
    if (!s.asked) throw new Error("toolwright: TypeScript 7 gave no signature for a function declaration");
    return s.asked as unknown as TsSignature;
  }

  /**
   * The return type annotation that is a signature's return type: the checker takes the
   * return type of a declared signature (no instantiation, no union of signatures) from
   * its declaration's annotation, when it has one (a constructor's is its class).
   */
  private writtenReturnType(s: Sync.Signature): Ast.TypeNode | undefined {
    if (s.target !== undefined || !this.declaredSignatures.has(s)) return undefined;
    const declaration = s.declaration?.resolve(this.project);
    return declaration && this.isWrittenFunction(declaration) ? this.returnAnnotation(declaration) : undefined;
  }

  /** A function's return type annotation, which is its return type unless it is a type predicate (whose type is `boolean`). */
  private returnAnnotation(declaration: WrittenSignature["declaration"]): Ast.TypeNode | undefined {
    const written = declaration.type;
    return written && !this.modules.is.isTypePredicateNode(written) ? written : undefined;
  }

  prefetch(roots: () => readonly TsType[]): void {
    const seen = new Set<TsType>();
    let level = [...roots()];
    // Deeper than hand-written tool types go; a type that expands without end (a generic
    // wrapping itself anew at every level) is left to the derivation, which reports it.
    for (let depth = 0; depth < PREFETCH_DEPTH && level.length > 0; depth++) {
      const next: TsType[] = [];
      const properties: TsSymbol[] = [];
      // The names of the declared properties met at this depth (see declaredProperties), in one request.
      this.askSymbolsAt(level.flatMap((t) => (seen.has(t) ? [] : (this.declaredPropertyNames(type(t)) ?? []))));
      for (const t of level) {
        if (seen.has(t)) continue;
        seen.add(t);
        const flags = this.typeFlags(t);
        if (flags & (TypeFlag.Union | TypeFlag.Intersection)) next.push(...this.typeMembers(t));
        else if (flags & TypeFlag.Object) {
          if (this.isArrayType(t) || this.isTupleType(t)) next.push(...this.typeArguments(t));
          else if (!this.isLibraryType(t)) {
            properties.push(...this.propertiesOfType(t));
            for (const info of this.indexInfosOfType(t)) next.push(info.valueType);
          }
        }
      }
      // The types of every property met at this depth, in one request.
      if (properties.length > 0) next.push(...this.typesOfSymbols(properties));
      level = next;
    }
  }

  prefetchLocations(
    at: () => { readonly types: readonly syntax.Node[]; readonly symbols: readonly syntax.Node[] },
  ): void {
    const { types, symbols } = at();
    this.askTypesAt(
      types.map((n) => node(n)),
      this.typeAnswers,
    );
    this.askSymbolsAt(symbols.map((n) => node(n)));
  }

  /**
   * The types at `nodes`, asked in one request (the API's array overload) for the nodes
   * `answers` does not hold yet, and kept there.
   */
  private askTypesAt(nodes: readonly Ast.Node[], answers: Map<Ast.Node, TsType>): void {
    const missing = [...new Set(nodes)].filter((n) => !answers.has(n));
    if (missing.length === 0) return;
    const found = this.checker.getTypeAtLocation(missing);
    missing.forEach((n, i) => {
      answers.set(n, asType(found[i] ?? this.any()));
    });
  }

  /** The symbols at `nodes`, asked in one request for the nodes not asked before, and kept. */
  private askSymbolsAt(nodes: readonly Ast.Node[]): void {
    const missing = [...new Set(nodes)].filter((n) => !this.symbolAnswers.has(n));
    if (missing.length === 0) return;
    const found = this.checker.getSymbolAtLocation(missing);
    missing.forEach((n, i) => {
      const s = found[i];
      this.symbolAnswers.set(n, s ? asSymbol(s) : undefined);
    });
  }

  /** A diagnostic of TypeScript 7's (a type error, a tsconfig problem) as the CLI prints it. */
  printed(d: Sync.Diagnostic): PrintedDiagnostic {
    const C = this.modules.sync.DiagnosticCategory;
    const file = d.fileName === undefined ? undefined : this.sourceFile(this.fileNameOf(d.fileName) ?? d.fileName);
    return {
      ...(file ? { file, start: d.pos, length: d.end - d.pos } : {}),
      code: d.code,
      messageText: d.text,
      category: printedCategory(d.category, C),
    };
  }

  /**
   * The rules ask the type of every member written in a union annotation, and the symbol
   * of every type name written (for its alias and TSDoc), one at a time: the first such
   * question about a file asks them for every union member and type name written in its
   * declarations (function bodies left out), one request per question. A type node's type
   * at its location is the type it denotes (the checker answers getTypeAtLocation of a type
   * node with getTypeFromTypeNode), and getTypeAtLocation has an array overload where
   * getTypeFromTypeNode has none.
   */
  private askWrittenTypesOf(file: Ast.SourceFile): void {
    if (this.sweptFiles.has(file)) return;
    this.sweptFiles.add(file);
    // A library's files (lib.*.d.ts, @types/node) hold thousands of annotations the
    // derivation never reads: their few questions are asked one by one.
    if (EXTERNAL.test(file.fileName) || this.isDefaultLibraryFile(file.fileName)) return;
    const { is } = this.modules;
    const members: Ast.Node[] = [];
    const names: Ast.Node[] = [];
    const visit = (n: Ast.Node): void => {
      if (is.isBlock(n)) return;
      if (is.isUnionTypeNode(n)) members.push(...n.types);
      else if (is.isTypeReferenceNode(n)) names.push(n.typeName);
      if (is.isFunctionDeclaration(n) && n.type) members.push(n.type);
      n.forEachChild(visit);
    };
    visit(file);
    this.askTypesAt(members, this.typeNodeAnswers);
    this.askSymbolsAt(names);
  }

  /**
   * What a named import of a project file (`import { f } from "./m.js"`) names, read from
   * the module's export table (one request per module, serving every import of it) when
   * the table alone says it: the module has no `export =`, and the export is no alias
   * itself (a re-export is left to the checker). Resolving the import is then looking its
   * name up in that table, as the checker does. Undefined otherwise.
   */
  private importedExport(alias: Sync.Symbol): TsSymbol | undefined {
    const { is } = this.modules;
    const [handle, ...more] = alias.declarations;
    const file = handle && more.length === 0 ? this.fileNameOf(handle.path) : undefined;
    if (!handle || file === undefined || EXTERNAL.test(file)) return undefined;
    const specifier = handle.resolve(this.project);
    if (!specifier || !is.isImportSpecifier(specifier)) return undefined;
    // ImportSpecifier < NamedImports < ImportClause < ImportDeclaration
    const declaration = specifier.parent?.parent?.parent;
    if (!declaration || !is.isImportDeclaration(declaration)) return undefined;
    const module = this.symbolAtLocation(asNode(declaration.moduleSpecifier));
    if (!module) return undefined;
    const exports = this.exportTables(symbol(module), () => {
      const table = new Map<string, Sync.Symbol>();
      for (const s of this.checker.getExportsOfModule(symbol(module))) table.set(s.name, s);
      return table;
    });
    if (exports.has("export=")) return undefined;
    const found = exports.get((specifier.propertyName ?? specifier.name).text);
    return found && !(found.flags & this.S.Alias) ? asSymbol(found) : undefined;
  }

  /**
   * True when the type is an interface or an object type literal whose declarations (all of
   * them, merged ones too) extend nothing and declare no member of `kind` (a call, construct
   * or index signature): then it has none, since such a type has only the members its
   * declarations list. The rules ask this of every object type they meet; undefined
   * declarations (classes, mapped types, libraries) are left to the checker.
   */
  private declaresNo(t: Sync.Type, kind: Ast.SyntaxKind): boolean {
    const members = this.declaredMembersOf(t);
    return members !== undefined && !members.some((m) => m.kind === kind);
  }

  /**
   * The members an interface or type literal declares, when they are all it has (see
   * {@link declaresNo}); undefined for any other type, one declared outside the project's
   * own files (whose syntax trees the derivation does not otherwise fetch), or one whose
   * symbol was not asked yet (asking it would cost the request this saves).
   */
  private declaredMembersOf(t: Sync.Type): readonly Ast.Node[] | undefined {
    if (!this.symbolsOfTypes.has(t)) return undefined;
    return this.declaredMembers(t, () => {
      if (!(t.flags & this.T.Object)) return undefined;
      const objectFlags = (t as Sync.ObjectType).objectFlags;
      const O = this.O;
      if (objectFlags & O.Class || !(objectFlags & (O.Interface | O.Reference | O.Anonymous))) return undefined;
      const s = this.symbolsOfTypes.get(t);
      const handles = s ? symbol(s).declarations : [];
      if (handles.length === 0) return undefined;
      const members: Ast.Node[] = [];
      const { is } = this.modules;
      for (const handle of handles) {
        const file = this.fileNameOf(handle.path);
        if (file === undefined || EXTERNAL.test(file) || this.isDefaultLibraryFile(file)) return undefined;
        const declaration = handle.resolve(this.project);
        if (declaration && is.isInterfaceDeclaration(declaration) && !declaration.heritageClauses?.length) {
          members.push(...declaration.members);
        } else if (declaration && is.isTypeLiteralNode(declaration)) members.push(...declaration.members);
        else return undefined;
      }
      return members;
    });
  }

  /** `string`, `undefined`, ...: the text of an intrinsic type is its name (`any` is left out: the error type prints as `any` too). */
  private intrinsicText(t: Sync.Type): string | undefined {
    const name = (t as { readonly intrinsicName?: string }).intrinsicName;
    return name !== undefined && INTRINSIC_NAMES.has(name) ? name : undefined;
  }

  /** The type as a type reference, which arrays and tuples are. */
  private referenceOf(t: TsType): Sync.TypeReference | undefined {
    const native = type(t);
    return native.flags & this.T.Object && (native as Sync.ObjectType).objectFlags & this.O.Reference
      ? (native as Sync.TypeReference)
      : undefined;
  }

  /** `Date`, `Map`, `Promise`...: the rules stop at them, so their members are never read. */
  private isLibraryType(t: TsType): boolean {
    const s = this.symbolOfType(t);
    return s !== undefined && this.declarationFiles(s).some((file) => this.isDefaultLibraryFile(file));
  }

  private mapTypeFlags(t: Sync.Type): number {
    const F = this.T;
    const f = t.flags;
    let out = 0;
    if (f & F.Any) out |= TypeFlag.Any;
    if (f & F.Unknown) out |= TypeFlag.Unknown;
    if (f & F.String) out |= TypeFlag.String;
    if (f & F.Number) out |= TypeFlag.Number;
    if (f & F.Boolean) out |= TypeFlag.Boolean;
    if (f & (F.BigInt | F.BigIntLiteral)) out |= TypeFlag.BigInt;
    if (f & (F.ESSymbol | F.UniqueESSymbol)) out |= TypeFlag.ESSymbol;
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
      if ((t as Sync.ObjectType).objectFlags & this.O.Mapped) out |= TypeFlag.Mapped;
    }
    if (f & F.NonPrimitive) out |= TypeFlag.NonPrimitive;
    return out;
  }

  private any(): Sync.Type {
    this.anyType ??= this.checker.getAnyType();
    return this.anyType;
  }

  /** Program files by the paths the API's node handles carry (the compiler's canonical form). */
  private byPath(): Map<string, string> {
    if (!this.fileNames) {
      this.fileNames = new Map();
      for (const fileName of this.program.getSourceFileNames()) this.fileNames.set(fileName, fileName);
    }
    return this.fileNames;
  }

  private fileNameOf(path: string): string | undefined {
    const names = this.byPath();
    const exact = names.get(path);
    if (exact !== undefined) return exact;
    // On a case-insensitive file system the compiler's paths are lower-cased.
    this.lowerCased ??= new Map([...names.values()].map((fileName) => [fileName.toLowerCase(), fileName]));
    return this.lowerCased.get(path);
  }
}
