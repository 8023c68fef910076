import type { Node, Syntax } from "../backend/syntax.js";
import { docComment, docHost } from "../docs.js";
import { indentationAt, type TextEdit } from "./edits.js";
import type { UndocumentedParameter } from "./undocumented-parameters.js";

function isInlineFunction(node: Node, S: Syntax): boolean {
  return (S.isArrowFunction(node) || S.isFunctionExpression(node)) && !S.isVariableDeclaration(node.parent);
}

/**
 * The edit that adds `@param <name> TODO…` to the TSDoc of the parameter's function: a
 * line before the closing `*\/` of its comment, or a new comment above it. None for an
 * inline function without a comment of its own, whose description may equally live on
 * the statement around the call: there the place is not unambiguous.
 */
export function paramDocEdit(parameter: UndocumentedParameter, syntax: Syntax): TextEdit | undefined {
  const host = docHost(parameter.fn, syntax);
  const file = host.getSourceFile();
  const text = file.text;
  const line = `@param ${parameter.name} TODO: say what the model should pass.`;
  const comment = docComment(host, syntax);
  const edit = (start: number, length: number, newText: string): TextEdit => ({
    fileName: file.fileName,
    start,
    length,
    newText,
  });
  if (comment) {
    const close = comment.end - 2;
    const lastBreak = text.lastIndexOf("\n", close);
    const indent = indentationAt(text, comment.pos);
    if (lastBreak > comment.pos && text.slice(lastBreak + 1, close).trim() === "") {
      // A multi-line comment whose `*/` has a line of its own: one more line above it.
      return edit(lastBreak + 1, 0, `${indent} * ${line}\n`);
    }
    // `/** Summary. */` on one line: move the closing onto a line of its own.
    const trimmed = text.slice(comment.pos, close).trimEnd().length + comment.pos;
    return edit(trimmed, comment.end - trimmed, `\n${indent} * ${line}\n${indent} */`);
  }
  if (isInlineFunction(host, syntax)) return undefined;
  const start = host.getStart();
  const indent = indentationAt(text, start);
  return edit(start, 0, `/**\n${indent} * ${line}\n${indent} */\n${indent}`);
}
