/**
 * The syntax the derivation reads: the subset of the AST that TypeScript 5.9 (`typescript`)
 * and TypeScript 7 (`typescript/unstable/ast`) share, node for node and property for
 * property. A node's kind is never compared as a number (the two compilers number
 * `SyntaxKind` differently): it is asked through {@link Syntax}, whose guards each backend
 * takes from its own compiler. Both compilers' nodes are assignable to these interfaces,
 * which the backends' type-check proves.
 */

export interface TextRange {
  readonly pos: number;
  readonly end: number;
}

export interface NodeArray<T extends Node> extends ReadonlyArray<T>, TextRange {
  readonly hasTrailingComma?: boolean;
}

export interface Node extends TextRange {
  readonly parent: Node;
  getSourceFile(): SourceFile;
  getStart(file?: SourceFile): number;
  getFullStart(): number;
  getEnd(): number;
  getText(file?: SourceFile): string;
  forEachChild<T>(visit: (node: Node) => T): T | undefined;
}

export interface LineAndCharacter {
  readonly line: number;
  readonly character: number;
}

export interface SourceFile extends Node {
  readonly fileName: string;
  readonly text: string;
  readonly isDeclarationFile: boolean;
  readonly statements: NodeArray<Node>;
  getLineAndCharacterOfPosition(position: number): LineAndCharacter;
}

/** A `/* ... *\/` or `// ...` comment's place in its file's text. */
export interface CommentRange extends TextRange {}

export type Expression = Node;
export type TypeNode = Node;

/** Identifiers, string literals and numeric literals: their `text` is the value as written (unquoted). */
export interface TextNode extends Node {
  readonly text: string;
}

export interface PrefixUnaryExpression extends Node {
  readonly operand: Expression;
}

/** `(x)`, `x as T`, `x satisfies T`, `x!`, `f<T>` and decorators: one inner expression. */
export interface WrappingNode extends Node {
  readonly expression: Expression;
}

export interface CallExpression extends Node {
  readonly expression: Expression;
  readonly arguments: NodeArray<Expression>;
}

export interface ArrayLiteralExpression extends Node {
  readonly elements: NodeArray<Expression>;
}

export interface ObjectLiteralExpression extends Node {
  readonly properties: NodeArray<Node>;
}

export interface PropertyAssignment extends Node {
  readonly name: Node;
  readonly initializer: Expression;
}

/** A member of an object literal or a class: what its `name` is, when it has one. */
export interface NamedNode extends Node {
  readonly name?: Node;
}

/** Function declarations and expressions, arrow functions and methods. */
export interface FunctionLike extends Node {
  readonly name?: Node;
  readonly parameters: NodeArray<ParameterDeclaration>;
}

export interface VariableDeclaration extends Node {
  readonly name: Node;
  readonly type?: TypeNode;
  readonly initializer?: Expression;
}

export interface ParameterDeclaration extends Node {
  readonly name: Node;
  readonly dotDotDotToken?: Node;
  readonly questionToken?: Node;
  readonly type?: TypeNode;
  readonly initializer?: Expression;
}

export interface BindingPattern extends Node {
  readonly elements: NodeArray<Node>;
}

export interface BindingElement extends Node {
  readonly propertyName?: Node;
  /** Always present in TypeScript 5; optional in TypeScript 7's AST types. */
  readonly name?: Node;
  readonly initializer?: Expression;
}

/** Property signatures and declarations: the annotation written on them. */
export interface TypedMember extends Node {
  readonly type?: TypeNode;
}

/** `(T)`, `readonly T`, `...T`, `T?` and named tuple members: one inner type. */
export interface WrappingTypeNode extends Node {
  readonly type: TypeNode;
}

export interface NamedTupleMember extends WrappingTypeNode {
  readonly dotDotDotToken?: Node;
}

export interface TypeReferenceNode extends Node {
  readonly typeName: Node;
  readonly typeArguments?: NodeArray<TypeNode>;
}

export interface ArrayTypeNode extends Node {
  readonly elementType: TypeNode;
}

export interface TupleTypeNode extends Node {
  readonly elements: NodeArray<TypeNode>;
}

export interface UnionTypeNode extends Node {
  readonly types: NodeArray<TypeNode>;
}

export interface TypeAliasDeclaration extends Node {
  readonly name: TextNode;
  readonly typeParameters?: NodeArray<Node>;
  readonly type: TypeNode;
}

/**
 * What the derivation asks about nodes, answered by each backend with its own compiler's
 * guards and scanner. One guard per kind (or family) the derivation distinguishes.
 */
export interface Syntax {
  isIdentifier(node: Node): node is TextNode;
  /** `"text"` or `'text'`. */
  isStringLiteral(node: Node): node is TextNode;
  /** A template literal without substitutions (`` `text` ``). */
  isNoSubstitutionTemplateLiteral(node: Node): node is TextNode;
  isNumericLiteral(node: Node): node is TextNode;
  /** `-x`. */
  isNegation(node: Node): node is PrefixUnaryExpression;
  isTrueKeyword(node: Node): boolean;
  isFalseKeyword(node: Node): boolean;
  isNullKeyword(node: Node): boolean;
  isCallExpression(node: Node): node is CallExpression;
  isDecorator(node: Node): node is WrappingNode;
  isArrayLiteralExpression(node: Node): node is ArrayLiteralExpression;
  isSpreadElement(node: Node): boolean;
  isOmittedExpression(node: Node): boolean;
  isObjectLiteralExpression(node: Node): node is ObjectLiteralExpression;
  isPropertyAssignment(node: Node): node is PropertyAssignment;
  isSpreadAssignment(node: Node): boolean;
  isComputedPropertyName(node: Node): boolean;
  isPropertyAccessExpression(node: Node): node is WrappingNode & { readonly name: TextNode };
  isParenthesizedExpression(node: Node): node is WrappingNode;
  isAsExpression(node: Node): node is WrappingNode;
  isSatisfiesExpression(node: Node): node is WrappingNode;
  isNonNullExpression(node: Node): node is WrappingNode;
  isExpressionWithTypeArguments(node: Node): node is WrappingNode;
  isFunctionDeclaration(node: Node): node is FunctionLike;
  isFunctionExpression(node: Node): node is FunctionLike;
  isArrowFunction(node: Node): node is FunctionLike;
  isMethodDeclaration(node: Node): node is FunctionLike & { readonly name: Node };
  isVariableDeclaration(node: Node): node is VariableDeclaration;
  isVariableDeclarationList(node: Node): boolean;
  isParameter(node: Node): node is ParameterDeclaration;
  isObjectBindingPattern(node: Node): node is BindingPattern;
  isArrayBindingPattern(node: Node): node is BindingPattern;
  isPropertySignature(node: Node): node is TypedMember;
  isPropertyDeclaration(node: Node): node is TypedMember & { readonly name: Node; readonly initializer?: Expression };
  /** Any type node (but an `extends f(...)` clause, an expression written where a type goes). */
  isTypeNode(node: Node): boolean;
  isInterfaceDeclaration(node: Node): boolean;
  isTypeAliasDeclaration(node: Node): node is TypeAliasDeclaration;
  isParenthesizedTypeNode(node: Node): node is WrappingTypeNode;
  /** `readonly T[]` (not `keyof T` or `unique symbol`). */
  isReadonlyTypeOperator(node: Node): node is WrappingTypeNode;
  isTypeReferenceNode(node: Node): node is TypeReferenceNode;
  isArrayTypeNode(node: Node): node is ArrayTypeNode;
  isTupleTypeNode(node: Node): node is TupleTypeNode;
  isNamedTupleMember(node: Node): node is NamedTupleMember;
  isRestTypeNode(node: Node): node is WrappingTypeNode;
  isOptionalTypeNode(node: Node): node is WrappingTypeNode;
  isUnionTypeNode(node: Node): node is UnionTypeNode;
  /** Comments before `pos` that start on their own line. */
  leadingCommentRanges(text: string, pos: number): readonly CommentRange[] | undefined;
  /** Comments after `pos` on the same line. */
  trailingCommentRanges(text: string, pos: number): readonly CommentRange[] | undefined;
}
