import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { TsSignature } from "../../packages/compiler/src/backend/backend.js";
import type { Node } from "../../packages/compiler/src/backend/syntax.js";
import type { Ts7Backend } from "../../packages/compiler/src/backend/ts7/ts7-backend.js";
import { removeTempProject } from "../../packages/compiler/test/temp-project.js";
import { sourceProject, ts7Session } from "./project.js";

// The TypeScript 7 backend reads a function's signature off its declaration, with no request
// (getSignatureFromDeclaration is one per function, with no batch form). What it answers must
// be what the checker answers: the same parameters, of the same types, the same return type
// and the same declaration, for every kind of function and parameter a tool can have.

const TOOLS = `export function annotated(a: string, b?: number, ...rest: boolean[]): string { return a; }
export function inferred(a: string) { return a.length; }
export function isText(value: unknown): value is string { return typeof value === "string"; }
export function generic<T extends string>(value: T): T[] { return [value]; }
export async function later(a: number): Promise<number> { return a; }
export function defaults(a = 3, b: "x" | "y" = "x"): string { return b + a; }
export function destructured({ a }: { a: string }): void { void a; }
export function withThis(this: Date, a: string): number { return this.getTime() + a.length; }
export function twice(x: string): string;
export function twice(x: number): number;
export function twice(x: unknown): unknown { return x; }
export const arrow = (a: string): number => a.length;
export const expression = function (a: string): number { return a.length; };
export const contextual: (a: string, b: number) => number = (a, b) => a.length + b;
export class Box {
  method(a: string, b: { deep: number[] }): string { return a + b.deep.length; }
}
`;

// A JavaScript file's functions are the checker's to answer (JSDoc can retype or overload them).
const SCRIPT = `/** @param {string} a */
export function counted(a) { return arguments.length + a.length; }
`;

/** A signature as the derivation reads it: where it is declared, its parameters and their types, its return type. */
function shown(backend: Ts7Backend, s: TsSignature): string {
  const declaration = backend.signatureDeclaration(s);
  const parameters = backend
    .signatureParameters(s)
    .map((p) => `${backend.symbolName(p)}: ${backend.typeToString(backend.typeOfSymbol(p))}`);
  const at = declaration ? declaration.getStart() : -1;
  return `@${at} (${parameters.join(", ")}) => ${backend.typeToString(backend.returnTypeOfSignature(s))}`;
}

/** Every function-like node of a file with the node whose type has its signature (a declaration's name, an expression itself). */
function functionsOf(backend: Ts7Backend, file: Node): { declaration: Node; typed: Node }[] {
  const S = backend.syntax;
  const found: { declaration: Node; typed: Node }[] = [];
  const visit = (node: Node): void => {
    if (S.isFunctionDeclaration(node) || S.isMethodDeclaration(node))
      found.push({ declaration: node, typed: (node as Node & { name: Node }).name });
    else if (S.isArrowFunction(node) || S.isFunctionExpression(node)) found.push({ declaration: node, typed: node });
    node.forEachChild(visit);
  };
  visit(file);
  return found;
}

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) removeTempProject(root);
});

describe("a TypeScript 7 function's signature read off its declaration", () => {
  it("is what the checker answers, for every kind of function and parameter, with no request to get it", () => {
    const root = sourceProject(
      "ts7-written-signature",
      { strict: true, allowJs: true, skipLibCheck: true, noEmit: true, types: [] },
      { "tools.ts": TOOLS, "script.js": SCRIPT },
    );
    roots.push(root);
    const session = ts7Session(root, true);
    try {
      const { backend } = session.open();
      const compared: string[] = [];
      for (const name of ["tools.ts", "script.js"]) {
        const file = backend.sourceFile(path.join(root, "src", name));
        if (!file) throw new Error(`no ${name} in the program`);
        const functions = functionsOf(backend, file);
        const before = session.timing().totals.requestCount;
        const written = functions.map(({ declaration }) => backend.signatureOfDeclaration(declaration));
        const asked = session.timing().totals.requestCount - before;
        // Only what is not written is asked: the destructured and `this` parameters, the script's functions.
        expect(asked).toBe(name === "script.js" ? 1 : 2);
        // The checker's: the signatures of each function's type (an overload's by its place).
        functions.forEach(({ typed }, i) => {
          const signatures = backend.signaturesOfType(backend.typeAtLocation(typed), "call");
          const place = functions.slice(0, i).filter((f) => f.typed.getText() === typed.getText()).length;
          // An overloaded function's implementation is no signature of its type.
          if (place > 0 && place >= signatures.length) return;
          const checker = signatures[place];
          const mine = written[i];
          if (!checker || !mine) throw new Error(`no signature for ${typed.getText()}`);
          expect(shown(backend, mine)).toBe(shown(backend, checker));
          compared.push(`${typed.getText().slice(0, 24)} ${shown(backend, mine).replace(/^@\d+ /, "")}`);
        });
      }
      expect(compared).toEqual([
        "annotated (a: string, b: number | undefined, rest: boolean[]) => string",
        "inferred (a: string) => number",
        "isText (value: unknown) => boolean",
        "generic (value: T) => T[]",
        "later (a: number) => Promise<number>",
        'defaults (a: number, b: "x" | "y") => string',
        "destructured (__0: { a: string; }) => void",
        "withThis (a: string) => number",
        "twice (x: string) => string",
        "twice (x: number) => number",
        "(a: string): number => a (a: string) => number",
        "function (a: string): nu (a: string) => number",
        "(a, b) => a.length + b (a: string, b: number) => number",
        "method (a: string, b: { deep: number[]; }) => string",
        "counted (a: string) => number",
      ]);
    } finally {
      session.close();
    }
  });
});
