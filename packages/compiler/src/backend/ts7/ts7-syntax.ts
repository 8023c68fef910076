import type * as Ast from "typescript-7/unstable/ast";
import type * as syntax from "../syntax.js";
import type { Ts7Modules } from "./ts7-api.js";

// Compile-time proof that TypeScript 7's nodes have the shape the shared derivation reads.
type Fits<A extends B, B> = A;
export type Ts7NodesFit = [
  Fits<Ast.SourceFile, syntax.SourceFile>,
  Fits<Ast.CallExpression, syntax.CallExpression>,
  Fits<Ast.Decorator, syntax.WrappingNode>,
  Fits<Ast.ArrayLiteralExpression, syntax.ArrayLiteralExpression>,
  Fits<Ast.ObjectLiteralExpression, syntax.ObjectLiteralExpression>,
  Fits<Ast.PropertyAssignment, syntax.PropertyAssignment>,
  Fits<Ast.FunctionDeclaration, syntax.FunctionLike>,
  Fits<Ast.ArrowFunction, syntax.FunctionLike>,
  Fits<Ast.MethodDeclaration, syntax.FunctionLike>,
  Fits<Ast.VariableDeclaration, syntax.VariableDeclaration>,
  Fits<Ast.ParameterDeclaration, syntax.ParameterDeclaration>,
  Fits<Ast.ObjectBindingPattern, syntax.BindingPattern>,
  Fits<Ast.BindingElement, syntax.BindingElement>,
  Fits<Ast.PropertySignatureDeclaration, syntax.TypedMember>,
  Fits<Ast.TypeReferenceNode, syntax.TypeReferenceNode>,
  Fits<Ast.ArrayTypeNode, syntax.ArrayTypeNode>,
  Fits<Ast.TupleTypeNode, syntax.TupleTypeNode>,
  Fits<Ast.NamedTupleMember, syntax.NamedTupleMember>,
  Fits<Ast.UnionTypeNode, syntax.UnionTypeNode>,
  Fits<Ast.TypeAliasDeclaration, syntax.TypeAliasDeclaration>,
  Fits<Ast.PrefixUnaryExpression, syntax.PrefixUnaryExpression>,
  Fits<Ast.Identifier, syntax.TextNode>,
];

const made = new WeakMap<Ts7Modules, syntax.Syntax>();

/** {@link syntax.Syntax} from a TypeScript 7 package's own guards (`typescript/unstable/ast/is`) and scanner. */
export function ts7Syntax(modules: Ts7Modules): syntax.Syntax {
  let found = made.get(modules);
  if (found) return found;
  const { is, ast } = modules;
  const K = ast.SyntaxKind;
  const kind = (node: syntax.Node) => (node as unknown as Ast.Node).kind;
  const as = <N extends Ast.Node>(guard: (node: Ast.Node) => node is N) =>
    guard as unknown as (node: syntax.Node) => boolean;
  found = {
    isIdentifier: as(is.isIdentifier),
    isStringLiteral: as(is.isStringLiteral),
    isNoSubstitutionTemplateLiteral: as(is.isNoSubstitutionTemplateLiteral),
    isNumericLiteral: as(is.isNumericLiteral),
    isNegation: (node: syntax.Node) =>
      is.isPrefixUnaryExpression(node as unknown as Ast.Node) &&
      (node as unknown as Ast.PrefixUnaryExpression).operator === K.MinusToken,
    isTrueKeyword: (node: syntax.Node) => kind(node) === K.TrueKeyword,
    isFalseKeyword: (node: syntax.Node) => kind(node) === K.FalseKeyword,
    isNullKeyword: (node: syntax.Node) => kind(node) === K.NullKeyword,
    isCallExpression: as(is.isCallExpression),
    isDecorator: as(is.isDecorator),
    isArrayLiteralExpression: as(is.isArrayLiteralExpression),
    isSpreadElement: as(is.isSpreadElement),
    isOmittedExpression: as(is.isOmittedExpression),
    isObjectLiteralExpression: as(is.isObjectLiteralExpression),
    isPropertyAssignment: as(is.isPropertyAssignment),
    isSpreadAssignment: as(is.isSpreadAssignment),
    isComputedPropertyName: as(is.isComputedPropertyName),
    isPropertyAccessExpression: as(is.isPropertyAccessExpression),
    isParenthesizedExpression: as(is.isParenthesizedExpression),
    isAsExpression: as(is.isAsExpression),
    isSatisfiesExpression: as(is.isSatisfiesExpression),
    isNonNullExpression: as(is.isNonNullExpression),
    isExpressionWithTypeArguments: as(is.isExpressionWithTypeArguments),
    isFunctionDeclaration: as(is.isFunctionDeclaration),
    isFunctionExpression: as(is.isFunctionExpression),
    isArrowFunction: as(is.isArrowFunction),
    isMethodDeclaration: as(is.isMethodDeclaration),
    isVariableDeclaration: as(is.isVariableDeclaration),
    isVariableDeclarationList: as(is.isVariableDeclarationList),
    isParameter: as(is.isParameterDeclaration),
    isObjectBindingPattern: as(is.isObjectBindingPattern),
    isArrayBindingPattern: as(is.isArrayBindingPattern),
    isPropertySignature: as(is.isPropertySignatureDeclaration),
    isPropertyDeclaration: as(is.isPropertyDeclaration),
    isTypeNode: as(is.isTypeNode),
    isInterfaceDeclaration: as(is.isInterfaceDeclaration),
    isTypeAliasDeclaration: as(is.isTypeAliasDeclaration),
    isParenthesizedTypeNode: as(is.isParenthesizedTypeNode),
    isReadonlyTypeOperator: (node: syntax.Node) =>
      is.isTypeOperatorNode(node as unknown as Ast.Node) &&
      (node as unknown as Ast.TypeOperatorNode).operator === K.ReadonlyKeyword,
    isTypeReferenceNode: as(is.isTypeReferenceNode),
    isArrayTypeNode: as(is.isArrayTypeNode),
    isTupleTypeNode: as(is.isTupleTypeNode),
    isNamedTupleMember: as(is.isNamedTupleMember),
    isRestTypeNode: as(is.isRestTypeNode),
    isOptionalTypeNode: as(is.isOptionalTypeNode),
    isUnionTypeNode: as(is.isUnionTypeNode),
    leadingCommentRanges: ast.getLeadingCommentRanges,
    trailingCommentRanges: ast.getTrailingCommentRanges,
  } as syntax.Syntax;
  made.set(modules, found);
  return found;
}
