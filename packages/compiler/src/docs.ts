import type { Spec } from "comment-parser";
// The parser alone: the package's main entry also loads its stringifier and transforms, 18
// modules that took 16-23 ms to import on every build, against 9 for these.
import getParser from "comment-parser/parser/index";
import type { CommentRange, Node, Syntax } from "./backend/syntax.js";

/** What one TSDoc block says: its summary and its tags, raw. */
export interface DocBlock {
  readonly summary: string;
  readonly tags: readonly DocTag[];
}

/** One tag of a TSDoc block; `value` is everything after the tag name, as written. */
export interface DocTag {
  readonly tag: string;
  /** For `@param`: the parameter name. */
  readonly name: string;
  /** For `@param`: the text after the name, without TSDoc's leading hyphen. */
  readonly text: string;
  readonly value: string;
}

const EMPTY: DocBlock = { summary: "", tags: [] };

function rawValue(spec: Spec): string {
  // comment-parser splits `{...}` off as a type and the first word as a name; constraint
  // tags want the text exactly as written, so rebuild it from the source tokens.
  return spec.source
    .map(({ tokens }) => [tokens.type, tokens.postType, tokens.name, tokens.postName, tokens.description].join(""))
    .join("\n")
    .trim();
}

function toTag(spec: Spec): DocTag {
  return {
    tag: spec.tag,
    name: spec.name,
    text: spec.description.replace(/^-\s*/, "").trim(),
    value: rawValue(spec),
  };
}

/**
 * Reads the last `/** ... *\/` block before `node` with comment-parser. Works from the
 * source text, so it does not depend on TypeScript's JSDoc parsing mode.
 */
export function readDoc(node: Node, syntax: Syntax): DocBlock {
  let doc = cache.get(node);
  if (!doc) {
    doc = parseDoc(node, syntax);
    cache.set(node, doc);
  }
  return doc;
}

// Shared types are documented once and read by every tool that uses them.
const cache = new WeakMap<Node, DocBlock>();

/** Where the `/** ... *\/` block documenting `node` is in its file: the last one before it. */
export function docComment(node: Node, syntax: Syntax): CommentRange | undefined {
  const text = node.getSourceFile().text;
  // "Leading" comments must start on their own line; a comment on the same line as the
  // node (`(/** @minimum 1 *\/ count: number)`) is a "trailing" range at the same position.
  const pos = node.getFullStart();
  const ranges = [
    ...(syntax.trailingCommentRanges(text, pos) ?? []),
    ...(syntax.leadingCommentRanges(text, pos) ?? []),
  ];
  return ranges.filter((r) => text.startsWith("/**", r.pos)).at(-1);
}

function parseDoc(node: Node, syntax: Syntax): DocBlock {
  const last = docComment(node, syntax);
  if (!last) return EMPTY;
  const raw = node.getSourceFile().text.slice(last.pos, last.end);
  // Most member comments are one plain sentence: read those without the full parser.
  if (!raw.includes("@")) return { summary: plainSummary(raw), tags: [] };
  // comment-parser reads one tag per line; put each `@tag` written after other text on its own line.
  const comment = raw.replace(/([^\s*])[ \t]+(@[a-zA-Z]\w*)/g, "$1\n * $2");
  // What comment-parser's `parse` does: a parser with the default options, per comment.
  const [block] = getParser()(comment);
  if (!block) return EMPTY;
  return { summary: block.description.trim(), tags: block.tags.map(toTag) };
}

/** The text of a tagless `/** ... *\/` block, lines joined with spaces as comment-parser does. */
function plainSummary(comment: string): string {
  return comment
    .slice(3, -2)
    .split("\n")
    .map((line) => line.replace(/^\s*\*?\s?/, "").trim())
    .filter((line) => line.length > 0)
    .join(" ");
}

/** The node whose comment documents `decl`: a variable statement for `const f = () => ...`. */
export function docHost(decl: Node, syntax: Syntax): Node {
  let node: Node = decl;
  if (
    (syntax.isArrowFunction(node) || syntax.isFunctionExpression(node)) &&
    syntax.isVariableDeclaration(node.parent)
  ) {
    node = node.parent;
  }
  if (syntax.isVariableDeclaration(node) && syntax.isVariableDeclarationList(node.parent)) {
    return node.parent.parent;
  }
  return node;
}

/** The `@param` text for `name`, if the block has one. */
export function paramText(doc: DocBlock, name: string): string | undefined {
  const tag = doc.tags.find((t) => t.tag === "param" && t.name.replace(/^\[|\]$/g, "").split("=")[0] === name);
  return tag?.text || undefined;
}
