import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { deriveSpecs } from "@toolwright/compiler";
import type ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_COMPILER_OPTIONS } from "./compile-fixtures.js";

// A template literal type's pattern must take exactly the strings TypeScript takes. TypeScript
// splits a string at the first occurrence of each text between holes, left to right; a hole
// then holds what `Number()` reads (`${number}`), a bigint literal (`${bigint}`) or anything
// (`${string}`), and a hole right before another takes one character. Here TypeScript
// itself judges thousands of strings, each written as a literal of the template type, and
// the compiler's pattern for that type must give the same verdict on every one.
const require = createRequire(import.meta.url);
const tsc = require("typescript") as typeof ts;
const TMP = path.resolve(import.meta.dirname, "../.tmp");

// Written with <kind> for each hole (a `${kind}` in the type), <"a" | "b"> for a hole of literals.
const TEMPLATES = [
  "`v<number>.<number>`",
  "`<number>.<number>`",
  "`<number>.<string>`",
  "`<string>.<string>`",
  "`<number>x<number>`",
  "`<number>e<number>`",
  "`<number>0<number>`",
  "`<bigint>-<bigint>`",
  "`<bigint><bigint>`",
  "`<number><string>`",
  "`<string><number>`",
  "`<number><number>`",
  "`<string>aa<number>`",
  "`<string>aa<string>`",
  "`<string>, <string>`",
  "`<string>--<string>!`",
  "`<number> - <number>`",
  "`<number>  <string>`",
  "`a<string>b<string>c`",
  "`<number>:<number>:<number>`",
  "`<bigint>.<number>-<string>`",
  "`id-<number>` | `<string>@<string>`",
  // A hole of literals is its literals as text: TypeScript makes a union of templates of it.
  '`<number><"x" | "aa"><number>`',
  '`<"a" | "aa"><string>.<number>`',
];
const typeOf = (template: string) => template.replace(/<([^<>]+)>/g, (_hole, kind: string) => `\${${kind}}`);

// Pieces that are numbers, bigints, delimiters, white space and neither, glued in twos and
// threes: every way a hole can swallow, split or miss a delimiter.
const PIECES = ["", "1", "2.3", ".", "-", "a", "aa", "x", " ", "0x1F", "-0x1", "e5", "1e-7"];
const MORE = ["..", "  ", "e", ",", ", ", "--", "!", "b", "c", "0", "00", "v", " - ", "\n", "1.", "+", ":", "@", "id-"];
const GLUE = ["", ".", "x", "-", " - ", ", ", "--!", "aa1", "0", ":", "@"];
const WHOLE = ["abc", "axbyc", "abbc", "abcc", "1:2:3", "1:2", " 1 :2: 3", "1::3", "1:2:3:4", "1.5-x", "1n.2-"];

function samples(): string[] {
  const all = new Set<string>();
  for (const a of [...PIECES, ...MORE]) for (const b of [...PIECES, ...MORE]) all.add(a + b);
  for (const a of PIECES) for (const b of PIECES) for (const glue of GLUE) all.add(a + glue + b);
  for (const text of WHOLE) all.add(text);
  return [...all];
}

const STRINGS = samples();
let dir = "";
let patterns: string[] = [];
let accepted: boolean[][] = [];

// Type-checking some 40,000 literals takes a while on a loaded machine.
beforeAll(() => {
  mkdirSync(TMP, { recursive: true });
  dir = mkdtempSync(path.join(TMP, "template-patterns-"));
  const file = path.join(dir, "templates.ts");
  const lines = ['import { tool } from "toolwright";'];
  for (const [i, template] of TEMPLATES.entries()) lines.push(`type T${i} = ${typeOf(template)};`);
  const first = lines.length;
  for (const i of TEMPLATES.keys()) {
    for (const [j, text] of STRINGS.entries()) lines.push(`export const s${i}_${j}: T${i} = ${JSON.stringify(text)};`);
  }
  lines.push(
    "/** Takes one value of every template type. */",
    `function take(${TEMPLATES.map((_t, i) => `p${i}: T${i}`).join(", ")}): void {}`,
    "export const taker = tool(take);",
  );
  writeFileSync(file, `${lines.join("\n")}\n`);
  const program = tsc.createProgram([file], { ...TEST_COMPILER_OPTIONS, noEmit: true });
  const source = program.getSourceFile(file) as ts.SourceFile;
  const refused = new Set(
    program.getSemanticDiagnostics(source).map((d) => source.getLineAndCharacterOfPosition(d.start ?? 0).line),
  );
  accepted = TEMPLATES.map((_t, i) => STRINGS.map((_s, j) => !refused.has(first + i * STRINGS.length + j)));
  const { sites, diagnostics } = deriveSpecs(program, source);
  expect(diagnostics).toEqual([]);
  const properties = (sites[0]?.spec?.parameters.properties ?? {}) as Record<string, Record<string, unknown>>;
  patterns = TEMPLATES.map((_t, i) => {
    const schema = properties[`p${i}`] ?? {};
    const branches = (schema.anyOf as Record<string, unknown>[] | undefined) ?? [schema];
    return branches.map((b) => `(?:${String(b.pattern)})`).join("|");
  });
}, 600_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("template literal patterns match as TypeScript does", () => {
  it.each(TEMPLATES.map((template, i) => [template, i] as const))("%s", (_template, i) => {
    const pattern = new RegExp(patterns[i] as string, "u");
    const verdicts = accepted[i] as boolean[];
    // Both verdicts occur, or the samples would test half a pattern.
    expect(new Set(verdicts).size).toBe(2);
    const disagreements = STRINGS.filter((text, j) => pattern.test(text) !== verdicts[j]).map((text) => ({
      text,
      typescript: verdicts[STRINGS.indexOf(text)],
    }));
    expect(disagreements.slice(0, 5)).toEqual([]);
  });
});
