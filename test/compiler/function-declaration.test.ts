import path from "node:path";
import ts from "typescript";
import { afterAll, describe, expect, it } from "vitest";
import type { Backend } from "../../packages/compiler/src/backend/backend.js";
import type { CallExpression, Node } from "../../packages/compiler/src/backend/syntax.js";
import { Ts5Backend } from "../../packages/compiler/src/backend/ts5/ts5-backend.js";
import { functionDeclarationOf } from "../../packages/compiler/src/function-declaration.js";
import { removeTempProject } from "../../packages/compiler/test/temp-project.js";
import { sourceProject, ts7Session } from "../ts7/project.js";

// Which argument of a call names the one declaration whose signature its type has, read off
// the syntax and one symbol, the same on both compilers. Each `pick(...)` call's comment says
// what it should find; "type" means the caller must ask the argument's type instead.

const FILES: Record<string, string> = {
  "math.ts": `export function add(a: number, b: number): number { return a + b; }
export function twice(x: string): string;
export function twice(x: number): number;
export function twice(x: unknown) { return x; }
export function merged(a: string) { return a; }
export namespace merged { export const n = 1; }
`,
  "picks.ts": `import { add, merged, twice } from "./math.js";
import * as math from "./math.js";
export declare function pick(f: unknown): void;
function local(s: string) { return s; }
const arrow = (s: string) => s;
pick(local); // local
pick(add); // add
pick(twice); // type: overloads
pick(merged); // type: a function merged with a namespace
pick(arrow); // type: a variable
pick((s: string) => s); // the arrow itself
pick(function named(s: string) { return s; }); // the function expression itself
pick(math.add); // type: a property access
pick(local as (s: string) => string); // type: a cast
`,
  "script.js": `import { pick } from "./picks.js";
/** @param {string} s */
function inScript(s) { return s; }
pick(inScript); // type: a JavaScript file's function
pick((s) => s); // type: a JavaScript file's arrow
`,
};

const OPTIONS = { strict: true, allowJs: true, skipLibCheck: true, noEmit: true, types: [] };

/** Each `pick(...)` argument with what {@link functionDeclarationOf} finds: the file and line of the declaration, or "type". */
function picks(backend: Backend, root: string): string[] {
  const found: string[] = [];
  for (const name of ["picks.ts", "script.js"]) {
    const file = backend.sourceFile(path.join(root, "src", name));
    if (!file) throw new Error(`no ${name} in the program`);
    const visit = (node: Node): void => {
      if (backend.syntax.isCallExpression(node) && (node as CallExpression).expression.getText() === "pick") {
        const argument = (node as CallExpression).arguments[0] as Node;
        const declaration = functionDeclarationOf(argument, backend);
        const source = declaration?.getSourceFile();
        const at =
          declaration && source
            ? `${path.basename(source.fileName)}:${source.getLineAndCharacterOfPosition(declaration.getStart()).line + 1}`
            : "type";
        found.push(`${argument.getText()} -> ${at}`);
      }
      node.forEachChild(visit);
    };
    visit(file);
  }
  return found;
}

const EXPECTED = [
  "local -> picks.ts:4",
  "add -> math.ts:1",
  "twice -> type",
  "merged -> type",
  "arrow -> type",
  "(s: string) => s -> picks.ts:11",
  "function named(s: string) { return s; } -> picks.ts:12",
  "math.add -> type",
  "local as (s: string) => string -> type",
  "inScript -> type",
  "(s) => s -> type",
];

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) removeTempProject(root);
});

function project(name: string): string {
  const root = sourceProject(name, OPTIONS, FILES);
  roots.push(root);
  return root;
}

describe("functionDeclarationOf", () => {
  it("finds a written function or a name bound to one function declaration, on TypeScript 5", () => {
    const root = project("function-declaration-ts5");
    const program = ts.createProgram(
      Object.keys(FILES).map((file) => path.join(root, "src", file)),
      { ...OPTIONS, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext },
    );
    expect(picks(new Ts5Backend(program), root)).toEqual(EXPECTED);
  });

  it("finds the same on TypeScript 7", () => {
    const root = project("function-declaration-ts7");
    const session = ts7Session(root);
    try {
      expect(picks(session.open().backend, root)).toEqual(EXPECTED);
    } finally {
      session.close();
    }
  });
});
