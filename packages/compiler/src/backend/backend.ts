import type { Node, SourceFile, Syntax, TypeNode } from "./syntax.js";

declare const handle: unique symbol;

/** A type of the compiler behind a {@link Backend}: opaque to the derivation, equal by identity. */
export interface TsType {
  readonly [handle]: "type";
}

/** A symbol of the compiler behind a {@link Backend}: opaque to the derivation, equal by identity. */
export interface TsSymbol {
  readonly [handle]: "symbol";
}

/** A call signature of the compiler behind a {@link Backend}: opaque to the derivation. */
export interface TsSignature {
  readonly [handle]: "signature";
}

/**
 * What a type is, as toolwright's own bits: each backend maps its compiler's `TypeFlags`
 * (numbered differently in TypeScript 5 and 7) into these, so no rule reads a compiler's
 * enum. The names follow TypeScript's.
 */
export const TypeFlag = {
  Any: 1 << 0,
  Unknown: 1 << 1,
  String: 1 << 2,
  Number: 1 << 3,
  /** `boolean` (which is also a union of `true` and `false`). */
  Boolean: 1 << 4,
  /** `bigint` and bigint literals. */
  BigInt: 1 << 5,
  /** `symbol` and `unique symbol`. */
  ESSymbol: 1 << 6,
  Void: 1 << 7,
  Undefined: 1 << 8,
  Null: 1 << 9,
  Never: 1 << 10,
  StringLiteral: 1 << 11,
  NumberLiteral: 1 << 12,
  BooleanLiteral: 1 << 13,
  /** An enum, or a member of one. */
  EnumLiteral: 1 << 14,
  TemplateLiteral: 1 << 15,
  TypeParameter: 1 << 16,
  Union: 1 << 17,
  Intersection: 1 << 18,
  Object: 1 << 19,
  /** `object`. */
  NonPrimitive: 1 << 20,
  /** An object type made by a mapped type (`Pick`, `Partial`, `{ [K in Keys]: V }`). */
  Mapped: 1 << 21,
} as const;

/** What a symbol is, as toolwright's own bits (see {@link TypeFlag}). */
export const SymbolFlag = {
  Optional: 1 << 0,
  Class: 1 << 1,
  Interface: 1 << 2,
  Method: 1 << 3,
  /** An import or re-export: {@link Backend.aliasedSymbol} gives what it names. */
  Alias: 1 << 4,
  /** A `get` accessor (with {@link SetAccessor} too when it has a setter). */
  GetAccessor: 1 << 5,
  SetAccessor: 1 << 6,
} as const;

/** What one element of a tuple type is: `[a: string, b?: number, ...rest: boolean[]]`. */
export type TupleElement = "required" | "optional" | "rest" | "variadic";

/** One index signature of an object type: `[key: string]: V`, `[k: \`x-${string}\`]: V`. */
export interface IndexInfo {
  readonly keyType: TsType;
  readonly valueType: TsType;
}

/** A file of the program, with what the derivation needs to know about it without reading it. */
export interface ProgramFile {
  readonly fileName: string;
  /** A TypeScript library file (`lib.es2022.d.ts`, ...). */
  readonly isDefaultLibrary: boolean;
  /** A file from an installed package (`node_modules`). */
  readonly isExternalLibrary: boolean;
}

/**
 * The one seam between toolwright's derivation and a TypeScript compiler: every question
 * the derivation asks TypeScript goes through here. The schema rules, TSDoc reading, site
 * finding, checks and diagnostics are written once against it; `ts5/` answers from
 * TypeScript 5.9's in-process checker, `ts7/` from TypeScript 7's API over IPC
 * (`typescript/unstable/sync`). One backend serves one program (one snapshot of a project).
 *
 * Answers are the compiler's own: a backend maps flags and shapes into toolwright's terms
 * and nothing else. A backend may answer from a cache or batch questions it expects
 * ({@link prefetch}), never change what is answered.
 */
export interface Backend {
  readonly syntax: Syntax;
  /** The TypeScript running underneath, for messages: `"5.9.3"`, `"7.0.2"`. */
  readonly version: string;

  /** The folder spec sources are written relative to (the build's current directory). */
  currentDirectory(): string;
  /** Every file of the program. */
  programFiles(): readonly ProgramFile[];
  /** The parsed file, or undefined when the program does not hold it. */
  sourceFile(fileName: string): SourceFile | undefined;
  /** True for a TypeScript library file (`lib.es2022.d.ts`): where `Date`, `Map` and `Promise` are declared. */
  isDefaultLibraryFile(fileName: string): boolean;
  /** A program file's text, without parsing it when the backend can avoid that. */
  fileText(fileName: string): string | undefined;
  /**
   * For each file, the files its module references (imports, exports, `import()`, `require()`)
   * resolve to, or undefined when the compiler does not say. Asked for many files at once.
   */
  moduleTargets(fileNames: readonly string[]): ReadonlyMap<string, readonly string[] | undefined>;
  /** True for a script, or a module with `declare global` or `declare module "x"`: its declarations reach every file. */
  declaresGlobals(file: SourceFile): boolean;

  /** {@link TypeFlag} bits. */
  typeFlags(type: TsType): number;
  /** The members of a union or intersection, in the compiler's order. */
  typeMembers(type: TsType): readonly TsType[];
  /** The value of a string, number or boolean literal type. */
  literalValue(type: TsType): string | number | boolean | undefined;
  /** A template literal type's texts and the types of its holes between them. */
  templateParts(type: TsType): { readonly texts: readonly string[]; readonly types: readonly TsType[] };
  typeToString(type: TsType): string;
  /** The type as an annotation written at `at` reads (names as they are in scope there), never truncated. */
  annotationText(type: TsType, at: Node): string;
  symbolOfType(type: TsType): TsSymbol | undefined;
  /** The alias a type was written through (`type Id = ...`), if the compiler kept it. */
  aliasOfType(type: TsType): TsSymbol | undefined;
  isArrayType(type: TsType): boolean;
  isTupleType(type: TsType): boolean;
  /** The kind of each element of a tuple type. */
  tupleElements(type: TsType): readonly TupleElement[];
  /** The type arguments of a type reference: an array's element, a tuple's elements, `Promise<T>`'s T. */
  typeArguments(type: TsType): readonly TsType[];
  propertiesOfType(type: TsType): readonly TsSymbol[];
  /** The types a class or interface extends (`interface Row extends Array<Cell> {}` gives `Array<Cell>`); none for other types. */
  baseTypes(type: TsType): readonly TsType[];
  indexInfosOfType(type: TsType): readonly IndexInfo[];
  signaturesOfType(type: TsType, kind: "call" | "construct"): readonly TsSignature[];
  /** `"a"` → `string`, `3` → `number`; other types as they are. */
  baseTypeOfLiteral(type: TsType): TsType;
  typeFromTypeNode(node: TypeNode): TsType;
  typeAtLocation(node: Node): TsType;
  /**
   * The type at `node` when the backend already holds it from a {@link prefetchLocations},
   * else undefined: a caller may answer from it a question that would cost a request of its
   * own. An in-process backend prefetches nothing and holds none.
   */
  knownTypeAt(node: Node): TsType | undefined;
  contextualType(node: Node): TsType | undefined;

  symbolName(symbol: TsSymbol): string;
  /** The name as the compiler keys it: late-bound members read `__@compiledSpecBrand@12`. */
  escapedName(symbol: TsSymbol): string;
  /** {@link SymbolFlag} bits. */
  symbolFlags(symbol: TsSymbol): number;
  declarations(symbol: TsSymbol): readonly Node[];
  /** The files of a symbol's declarations, without parsing them. */
  declarationFiles(symbol: TsSymbol): readonly string[];
  valueDeclaration(symbol: TsSymbol): Node | undefined;
  typeOfSymbol(symbol: TsSymbol): TsType;
  /** {@link typeOfSymbol} of many symbols in one question. */
  typesOfSymbols(symbols: readonly TsSymbol[]): readonly TsType[];
  aliasedSymbol(symbol: TsSymbol): TsSymbol;
  symbolAtLocation(node: Node): TsSymbol | undefined;

  resolvedSignature(call: Node): TsSignature | undefined;
  signatureOfDeclaration(declaration: Node): TsSignature | undefined;
  signatureDeclaration(signature: TsSignature): Node | undefined;
  signatureParameters(signature: TsSignature): readonly TsSymbol[];
  returnTypeOfSignature(signature: TsSignature): TsType;

  /**
   * Says that the derivation is about to walk the trees of these types (the parameters and
   * return types of the sites being derived): a backend over IPC fetches them breadth-first,
   * many questions per request. `roots` is only called by a backend that prefetches (asking
   * for types early would change the order in which an in-process checker creates them).
   * Answers are the same with or without it.
   */
  prefetch(roots: () => readonly TsType[]): void;

  /**
   * Says that the derivation is about to ask {@link typeAtLocation} of `types` and
   * {@link symbolAtLocation} of `symbols` (candidate tool functions, the type names of their
   * annotations): a backend over IPC asks for all of them in one request per question. As
   * with {@link prefetch}, `at` is only called by a backend that prefetches, and answers are
   * the same with or without it.
   */
  prefetchLocations(at: () => { readonly types: readonly Node[]; readonly symbols: readonly Node[] }): void;
}
