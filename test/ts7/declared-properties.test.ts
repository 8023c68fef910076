import { writeFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { afterAll, describe, expect, it } from "vitest";
import type { Backend, TsType } from "../../packages/compiler/src/backend/backend.js";
import { SymbolFlag, TypeFlag } from "../../packages/compiler/src/backend/backend.js";
import type { FunctionLike, Node } from "../../packages/compiler/src/backend/syntax.js";
import { Ts5Backend } from "../../packages/compiler/src/backend/ts5/ts5-backend.js";
import { removeTempProject } from "../../packages/compiler/test/temp-project.js";
import { TEST_COMPILER_OPTIONS } from "../compiler/compile-fixtures.js";
import { projectWith, TS7, ts7Session, tsconfig } from "./project.js";

// The TypeScript 7 backend reads the properties of an interface or type literal off its
// declarations (the symbols at its members' names, asked in one batch), where those list them
// all; getPropertiesOfType, one request per type, answers the rest. Either way the answer
// must be TypeScript's: the same properties in the same order, of the same types, as the
// in-process TypeScript 5 checker gives.

const TYPES = `export interface Plain {
  a: string;
  b?: number;
  "quoted-key": boolean;
  7: string;
  m(x: string): void;
  m(x: number): void;
  get g(): string;
  set g(v: string);
}
export interface Merged { first: string }
export interface Merged { second: number; first: string }
export interface Signatures {
  [key: string]: unknown;
  named: string;
  (x: number): string;
  new (x: string): Plain;
}
export interface Extends extends Plain { c: string }
export interface Generic<T> { value: T; n: number }
export type Literal = { x: string; y: { deep: number } };
export type Box<T> = { boxed: T; fixed: { inner: T } };
export class Klass { own = 1; method(): void {} }
export type Mapped = { [K in "p" | "q"]: string };
export type Both = Plain & { extra: string };
export function use(
  plain: Plain,
  merged: Merged,
  signatures: Signatures,
  extended: Extends,
  generic: Generic<string>,
  literal: Literal,
  box: Box<number>,
  klass: Klass,
  mapped: Mapped,
  both: Both,
): void {}
`;

/** Each parameter of `use` with its type's properties (`name?: type`), as `backend` answers. */
function propertiesOfUse(backend: Backend, file: Node, asked?: () => string): string[] {
  let use: FunctionLike | undefined;
  file.forEachChild((n) => {
    if (backend.syntax.isFunctionDeclaration(n)) use = n;
  });
  if (!use) throw new Error("no function use()");
  const types = use.parameters.map((p) => backend.typeAtLocation(p.name));
  // Object-typed properties too, one level down (`literal.y`, `box.fixed`).
  const shown = (t: TsType, depth: number): string =>
    backend
      .propertiesOfType(t)
      .map((p) => {
        const optional = backend.symbolFlags(p) & SymbolFlag.Optional ? "?" : "";
        const type = backend.typeOfSymbol(p);
        const inner =
          depth === 0 &&
          backend.typeFlags(type) & TypeFlag.Object &&
          backend.signaturesOfType(type, "call").length === 0;
        return `${backend.symbolName(p)}${optional}: ${inner ? `{ ${shown(type, 1)} }` : backend.typeToString(type)}`;
      })
      .join("; ");
  return use.parameters.map((p, i) => {
    const type = types[i] as TsType;
    // The question the properties took, alone (the answer is kept for what follows).
    let question: string | undefined;
    if (asked) {
      asked();
      backend.propertiesOfType(type);
      question = asked();
    }
    const text = `${p.name.getText()}: ${shown(type, 0)}`;
    return question === undefined ? text : `${text} [${question}]`;
  });
}

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) removeTempProject(root);
});

describe("a TypeScript 7 type's properties", () => {
  it("are TypeScript's, read off declarations where they list them all and asked of the checker elsewhere", () => {
    const root = projectWith("ts7-declared-properties", TS7, { "tsconfig.json": tsconfig() });
    roots.push(root);
    const fileName = path.join(root, "src", "types.ts");
    writeFileSync(fileName, TYPES);

    // The options tsconfig() writes.
    const program = ts.createProgram([fileName], { ...TEST_COMPILER_OPTIONS, noEmit: true });
    const ts5 = new Ts5Backend(program);
    const expected = propertiesOfUse(ts5, ts5.sourceFile(fileName) as Node);

    const session = ts7Session(root, true);
    try {
      const { backend } = session.open();
      const file = backend.sourceFile(fileName) as Node;
      // Which question each type's properties took (the last one asked, the most recent five kept).
      let seen = 0;
      const asked = () => {
        const { totals, recentRequests } = session.timing();
        const methods = recentRequests.slice(recentRequests.length - Math.min(totals.requestCount - seen, 5));
        seen = totals.requestCount;
        return [...new Set(methods.map((r) => r.method).filter((m) => /Properties|SymbolsAt/.test(m)))].join(",");
      };
      const found = propertiesOfUse(backend, file, asked);
      expect(found.map((line) => line.replace(/ \[.*\]$/, ""))).toEqual(expected);
      expect(expected).toEqual([
        "plain: a: string; b?: number | undefined; quoted-key: boolean; 7: string; m: { (x: string): void; (x: number): void; }; g: string",
        "merged: first: string; second: number",
        "signatures: named: string",
        "extended: c: string; a: string; b?: number | undefined; quoted-key: boolean; 7: string; m: { (x: string): void; (x: number): void; }; g: string",
        "generic: value: string; n: number",
        "literal: x: string; y: { deep: number }",
        "box: boxed: number; fixed: { inner: number }",
        "klass: own: number; method: () => void",
        "mapped: p: string; q: string",
        "both: a: string; b?: number | undefined; quoted-key: boolean; 7: string; m: { (x: string): void; (x: number): void; }; g: string; extra: string",
      ]);
      // Declarations that list every property: symbols at their names; the rest: the checker.
      expect(found.map((line) => `${line.split(":")[0]} ${line.match(/\[(.*)\]$/)?.[1]}`)).toEqual([
        "plain getSymbolsAtLocations",
        "merged getSymbolsAtLocations",
        "signatures getSymbolsAtLocations",
        "extended getPropertiesOfType",
        "generic getPropertiesOfType",
        "literal getSymbolsAtLocations",
        "box getPropertiesOfType",
        "klass getPropertiesOfType",
        "mapped getPropertiesOfType",
        "both getPropertiesOfType",
      ]);
    } finally {
      session.close();
    }
  });
});
