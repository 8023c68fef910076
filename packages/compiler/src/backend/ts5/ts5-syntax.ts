import type ts from "typescript";
import type { Node, Syntax } from "../syntax.js";

const made = new WeakMap<typeof ts, Syntax>();

/**
 * {@link Syntax} from a TypeScript 5 instance's own guards (the one running the build: under
 * tspc, its in-memory copy), so SyntaxKind numbers are always that instance's.
 */
export function ts5Syntax(instance: typeof ts): Syntax {
  let syntax = made.get(instance);
  if (syntax) return syntax;
  const T = instance;
  const kind = (node: Node) => (node as unknown as ts.Node).kind;
  const as = <N extends ts.Node>(guard: (node: ts.Node) => node is N) => guard as unknown as (node: Node) => boolean;
  syntax = {
    isIdentifier: as(T.isIdentifier),
    isStringLiteral: as(T.isStringLiteral),
    isNoSubstitutionTemplateLiteral: as(T.isNoSubstitutionTemplateLiteral),
    isNumericLiteral: as(T.isNumericLiteral),
    isNegation: (node: Node) =>
      T.isPrefixUnaryExpression(node as unknown as ts.Node) &&
      (node as unknown as ts.PrefixUnaryExpression).operator === T.SyntaxKind.MinusToken,
    isTrueKeyword: (node: Node) => kind(node) === T.SyntaxKind.TrueKeyword,
    isFalseKeyword: (node: Node) => kind(node) === T.SyntaxKind.FalseKeyword,
    isNullKeyword: (node: Node) => kind(node) === T.SyntaxKind.NullKeyword,
    isCallExpression: as(T.isCallExpression),
    isDecorator: as(T.isDecorator),
    isArrayLiteralExpression: as(T.isArrayLiteralExpression),
    isSpreadElement: as(T.isSpreadElement),
    isOmittedExpression: as(T.isOmittedExpression),
    isObjectLiteralExpression: as(T.isObjectLiteralExpression),
    isPropertyAssignment: as(T.isPropertyAssignment),
    isSpreadAssignment: as(T.isSpreadAssignment),
    isComputedPropertyName: as(T.isComputedPropertyName),
    isPropertyAccessExpression: as(T.isPropertyAccessExpression),
    isParenthesizedExpression: as(T.isParenthesizedExpression),
    isAsExpression: as(T.isAsExpression),
    isSatisfiesExpression: as(T.isSatisfiesExpression),
    isNonNullExpression: as(T.isNonNullExpression),
    isExpressionWithTypeArguments: as(T.isExpressionWithTypeArguments),
    isFunctionDeclaration: as(T.isFunctionDeclaration),
    isFunctionExpression: as(T.isFunctionExpression),
    isArrowFunction: as(T.isArrowFunction),
    isMethodDeclaration: as(T.isMethodDeclaration),
    isVariableDeclaration: as(T.isVariableDeclaration),
    isVariableDeclarationList: as(T.isVariableDeclarationList),
    isParameter: as(T.isParameter),
    isObjectBindingPattern: as(T.isObjectBindingPattern),
    isArrayBindingPattern: as(T.isArrayBindingPattern),
    isPropertySignature: as(T.isPropertySignature),
    isPropertyDeclaration: as(T.isPropertyDeclaration),
    isTypeNode: as(T.isTypeNode),
    isInterfaceDeclaration: as(T.isInterfaceDeclaration),
    isTypeAliasDeclaration: as(T.isTypeAliasDeclaration),
    isParenthesizedTypeNode: as(T.isParenthesizedTypeNode),
    isReadonlyTypeOperator: (node: Node) =>
      T.isTypeOperatorNode(node as unknown as ts.Node) &&
      (node as unknown as ts.TypeOperatorNode).operator === T.SyntaxKind.ReadonlyKeyword,
    isTypeReferenceNode: as(T.isTypeReferenceNode),
    isArrayTypeNode: as(T.isArrayTypeNode),
    isTupleTypeNode: as(T.isTupleTypeNode),
    isNamedTupleMember: as(T.isNamedTupleMember),
    isRestTypeNode: as(T.isRestTypeNode),
    isOptionalTypeNode: as(T.isOptionalTypeNode),
    isUnionTypeNode: as(T.isUnionTypeNode),
    leadingCommentRanges: T.getLeadingCommentRanges,
    trailingCommentRanges: T.getTrailingCommentRanges,
  } as Syntax;
  made.set(instance, syntax);
  return syntax;
}
