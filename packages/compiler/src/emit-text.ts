import type { EmittedSite } from "./derive-specs.js";
import { specSource } from "./spec-source.js";

/** Replace `[start, end)` of the original text with `text`. */
export interface TextEdit {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

/** The text edit that writes one site's spec into the original source. */
export function editFor({ site, spec }: EmittedSite, source: string): TextEdit {
  const code = "$toolwrightRejected" in spec ? JSON.stringify(spec) : specSource(spec);
  const emission = site.emission;
  if (emission.kind === "call") {
    const end = emission.decorator.expression.getEnd();
    return { start: end, end, text: `(undefined, ${code})` };
  }
  if (emission.kind === "wrap") {
    const start = emission.element.getStart();
    const end = emission.element.getEnd();
    return { start, end, text: `{ fn: ${source.slice(start, end)}, spec: ${code} }` };
  }
  const args = emission.call.arguments;
  const values = [...Array<string>(emission.padding).fill("undefined"), code].join(", ");
  const lead = args.length === 0 || args.hasTrailingComma ? "" : ", ";
  return { start: args.end, end: args.end, text: `${lead}${values}` };
}

/**
 * Writes every site's spec into `source` by splicing text, so positions elsewhere in the
 * file are kept (useful for bundler plugins and source maps). `source` must be the text
 * the sites were found in.
 */
export function spliceSpecs(source: string, sites: readonly EmittedSite[]): string {
  const edits = sites.map((s) => editFor(s, source)).sort((a, b) => b.start - a.start);
  let out = source;
  for (const edit of edits) out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
  return out;
}
