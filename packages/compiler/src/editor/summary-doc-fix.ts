import type { Backend, TsSignature } from "../backend/backend.js";
import type { Node } from "../backend/syntax.js";
import { signatureOf, withStatementDoc } from "../derive.js";
import { docComment, docHost, readDoc } from "../docs.js";
import { literalProperty } from "../literal-value.js";
import type { ToolSite } from "../sites.js";
import { indentationAt, type TextEdit } from "./edits.js";

/** The summary the quick fix writes, for the developer to replace. */
export const SUMMARY_STUB = "TODO: say what this tool does and when the model should use it.";

/** The summary as the first line of the comment `/** ... *\/` spanning `comment`. */
function intoComment(text: string, comment: { readonly pos: number; readonly end: number }) {
  const open = comment.pos + 3;
  const indent = indentationAt(text, comment.pos);
  const lineEnd = text.indexOf("\n", open);
  const rest = text.slice(open, lineEnd === -1 || lineEnd > comment.end ? comment.end - 2 : lineEnd);
  // `/**` alone on its line: one line under it; `/** @readOnly */`: the tags move down a line.
  return rest.trim() === ""
    ? { start: open, length: 0, newText: `\n${indent} * ${SUMMARY_STUB}` }
    : {
        start: open,
        length: rest.length - rest.trimStart().length,
        newText: `\n${indent} * ${SUMMARY_STUB}\n${indent} * `,
      };
}

/** A new comment on lines of its own above `node`. */
function above(text: string, node: Node) {
  const start = node.getStart();
  const indent = indentationAt(text, start);
  return { start, length: 0, newText: `/**\n${indent} * ${SUMMARY_STUB}\n${indent} */\n${indent}` };
}

/**
 * The edit that gives a tool with no description (TW990005) a TSDoc summary stub where the
 * build reads the description: the first line of the function's comment; for an inline
 * function without one, the comment of the `const` statement around the call (or a new one
 * there), or, in a call with no statement of its own, a comment just before the function;
 * else a new comment above the function. None when the TSDoc has a summary, only a short
 * one, or the description is `tool()`'s option: a stub would not help there.
 */
export function summaryDocEdit(site: ToolSite, backend: Backend): TextEdit | undefined {
  const S = backend.syntax;
  if (literalProperty(site.options, "description", S).ok) return undefined;
  const signatures = signatureOf(site, backend);
  const signature = Array.isArray(signatures) ? signatures[0] : (signatures as TsSignature);
  const fn = signature && backend.signatureDeclaration(signature);
  if (!fn) return undefined;
  if (withStatementDoc(readDoc(docHost(fn, S), S), site.node, backend).summary.trim() !== "") return undefined;
  const host = docHost(fn, S);
  const file = host.getSourceFile();
  const text = file.text;
  const own = docComment(host, S);
  let change: { start: number; length: number; newText: string };
  if (own) change = intoComment(text, own);
  else if (host === fn && (S.isArrowFunction(fn) || S.isFunctionExpression(fn))) {
    // Inline: `const t = tool(function plan(...) {...})` is documented on the statement.
    const statement = S.isVariableDeclaration(site.node.parent) ? docHost(site.node.parent, S) : undefined;
    const outer = statement && docComment(statement, S);
    if (outer) change = intoComment(text, outer);
    else if (statement) change = above(text, statement);
    else change = { start: fn.getStart(), length: 0, newText: `/** ${SUMMARY_STUB} */ ` };
  } else change = above(text, host);
  return { fileName: file.fileName, ...change };
}
