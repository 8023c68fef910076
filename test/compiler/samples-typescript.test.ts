import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FIXTURES, fixtureCases, TEST_COMPILER_OPTIONS } from "./compile-fixtures.js";

// TypeScript is the judge of what a type accepts. Every fixture whose input.ts exports
// `Args` (the type of its tool's one destructured parameter, so its samples are `Args`
// values) has its samples type-checked as `Args` literals: each valid.json entry must
// compile, each invalid.json entry must not. The fixture suite checks the same samples
// against the schema (Ajv) and the generated validators; together they show that schema
// and TypeScript agree on them. Fixtures whose samples turn on constraints TypeScript
// cannot see (`@pattern`, formats, dates) do not export `Args`.
const require = createRequire(import.meta.url);
const tsc = require("typescript") as typeof ts;
const TMP = path.resolve(import.meta.dirname, "../.tmp");

const judged = fixtureCases().filter((name) =>
  /^export (interface|type) Args\b/m.test(readFileSync(path.join(FIXTURES, name, "input.ts"), "utf8")),
);

interface Sample {
  readonly fixture: string;
  readonly file: string;
  readonly value: unknown;
  readonly valid: boolean;
}

const samples: Sample[] = [];
let dir = "";
let refused = new Set<string>();

function samplesOf(name: string, file: string): unknown[] {
  try {
    return JSON.parse(readFileSync(path.join(FIXTURES, name, file), "utf8")) as unknown[];
  } catch {
    return [];
  }
}

beforeAll(() => {
  mkdirSync(TMP, { recursive: true });
  dir = mkdtempSync(path.join(TMP, "samples-typescript-"));
  const roots: string[] = [];
  for (const name of judged) {
    const file = path.join(dir, `${name}.ts`);
    const input = path
      .relative(dir, path.join(FIXTURES, name, "input.js"))
      .split(path.sep)
      .join("/");
    const lines = [`import type { Args } from "${input}";`];
    for (const [list, valid] of [
      ["valid.json", true],
      ["invalid.json", false],
    ] as const) {
      for (const value of samplesOf(name, list)) {
        // One sample per line: a diagnostic's line says which sample TypeScript refused.
        lines.push(`export const sample${samples.length}: Args = ${JSON.stringify(value)};`);
        samples.push({ fixture: name, file, value, valid });
      }
    }
    writeFileSync(file, `${lines.join("\n")}\n`);
    roots.push(file);
  }
  const program = tsc.createProgram(roots, { ...TEST_COMPILER_OPTIONS, noEmit: true });
  refused = new Set(
    tsc.getPreEmitDiagnostics(program).flatMap((d) => {
      if (!d.file || d.start === undefined || !roots.includes(d.file.fileName)) return [];
      const line = d.file.getLineAndCharacterOfPosition(d.start).line;
      return [`${d.file.fileName}:${line}`];
    }),
  );
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("fixture samples, as TypeScript judges them", () => {
  it("covers the fixtures that export their tool's argument type", () => {
    expect(judged.length).toBeGreaterThanOrEqual(7);
  });

  it.each(judged)("%s", (name) => {
    const mine = samples.filter((s) => s.fixture === name);
    expect(mine.some((s) => s.valid) && mine.some((s) => !s.valid)).toBe(true);
    mine.forEach((sample) => {
      const index = samples.indexOf(sample);
      // Line 0 is the import; sample i of the file is on the line after the ones before it.
      const line = 1 + index - samples.findIndex((s) => s.fixture === name);
      const accepted = !refused.has(`${sample.file}:${line}`);
      expect({ sample: sample.value, accepted }).toEqual({ sample: sample.value, accepted: sample.valid });
    });
  });
});
