import { type Backend, SymbolFlag } from "./backend/backend.js";
import { isScriptFileName } from "./backend/script-file-name.js";
import type { Expression, FunctionLike, Node } from "./backend/syntax.js";

/**
 * The declaration whose signature is, as the syntax and one symbol show, the only call
 * signature of an expression's type: a function written there (an arrow or a function
 * expression), or a name bound to exactly one function declaration, imported or not. The
 * checker makes a function's type of its declarations' signatures, so the declaration's
 * signature is the one the type has, and a backend over IPC can give it without a request
 * per function (getSignaturesOfType has no batch form). Undefined where anything else may
 * apply (overloads, a variable, a cast, a JavaScript file): callers then ask the type.
 */
export function functionDeclarationOf(expression: Expression, backend: Backend): FunctionLike | undefined {
  const S = backend.syntax;
  const declaration = S.isIdentifier(expression)
    ? namedFunction(expression, backend)
    : S.isArrowFunction(expression) || S.isFunctionExpression(expression)
      ? expression
      : undefined;
  return declaration && !isScriptFileName(declaration.getSourceFile().fileName) ? declaration : undefined;
}

/** The function declaration a name (or the import it is) stands for, when it is its symbol's only declaration. */
function namedFunction(name: Node, backend: Backend): FunctionLike | undefined {
  let symbol = backend.symbolAtLocation(name);
  if (symbol && backend.symbolFlags(symbol) & SymbolFlag.Alias) symbol = backend.aliasedSymbol(symbol);
  const [only, ...more] = symbol ? backend.declarations(symbol) : [];
  return only && more.length === 0 && backend.syntax.isFunctionDeclaration(only) ? only : undefined;
}
