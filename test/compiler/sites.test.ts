import { writeFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { afterAll, describe, expect, it } from "vitest";
import type { Backend } from "../../packages/compiler/src/backend/backend.js";
import { Ts5Backend } from "../../packages/compiler/src/backend/ts5/ts5-backend.js";
import { loadTs7 } from "../../packages/compiler/src/backend/ts7/ts7-api.js";
import { Ts7Session } from "../../packages/compiler/src/backend/ts7/ts7-session.js";
import { Derivation } from "../../packages/compiler/src/derivation.js";
import { removeTempProject, tempProject } from "../../packages/compiler/test/temp-project.js";
import { TS7, tsconfig } from "../ts7/project.js";
import { TEST_COMPILER_OPTIONS } from "./compile-fixtures.js";

// Which calls site finding asks the checker to resolve. A call is a tool site only if its
// resolved signature takes a spec, and such a signature can only be declared where
// toolwright's types reach; over TypeScript 7's API each resolution is a request, so calls
// to functions declared anywhere else (the default libraries, project files that import no
// toolwright module) are not asked about. Over that API, a call whose type (asked with the
// others, in one request) names the one signature that returns it is not resolved either;
// calls whose type cannot tell (overloads returning one type, a spec parameter typed by a
// type parameter) are. Both compilers, on one project: the same sites.

const FILES: Record<string, string> = {
  // Imports nothing of toolwright's: nothing declared here can take a spec.
  "helpers.ts": `export function shout(text: string): string {
  return text.toUpperCase();
}
`,
  // The app's own wrapper: its spec parameter makes every call of it a site.
  "wrap.ts": `import { type CompiledSpec, type FunctionTool, tool, type ToolOptions } from "toolwright";

export function myTool<F extends (...args: any[]) => unknown>(fn: F, options?: ToolOptions, spec?: CompiledSpec): FunctionTool<F> {
  return tool(fn, options, spec);
}

// Two signatures returning one type: a call's type does not say which one it resolved to.
export function either<F extends (...args: any[]) => unknown>(fn: F, options?: ToolOptions, spec?: CompiledSpec): FunctionTool<F>;
export function either<F extends (...args: any[]) => unknown>(fn: F, name: string): FunctionTool<F>;
export function either(fn: (...args: any[]) => unknown, second?: unknown, spec?: CompiledSpec): unknown {
  return tool(fn, typeof second === "string" ? { name: second } : (second as ToolOptions | undefined), spec);
}

// A parameter typed by a type parameter: what it takes is the instantiation's to say, so
// its calls are resolved (the checker instantiates S as no spec here: no site on either compiler).
export function generic<F extends (...args: any[]) => unknown, S extends CompiledSpec = CompiledSpec>(fn: F, spec?: S): FunctionTool<F> {
  return tool(fn, undefined, spec);
}
`,
  "tools.ts": `import { tool } from "toolwright";
import { shout } from "./helpers.js";
import { either, generic, myTool } from "./wrap.js";

function local(n: number): number {
  return Math.max(0, n);
}

/**
 * Greets people.
 * @param names Who, separated by spaces.
 */
function greet(names: string): string {
  const parts = names.split(" ").map((part) => part.trim());
  return shout(JSON.stringify(parts)) + String(local(parts.length));
}

/**
 * Counts to n.
 * @param n How far.
 */
function count(n: number): number {
  return local(n);
}

/**
 * Doubles n.
 * @param n The number.
 */
function twice(n: number): number {
  return n * 2;
}

/**
 * Halves n.
 * @param n The number.
 */
function half(n: number): number {
  return n / 2;
}

export const tools = [tool(greet), myTool(count), either(twice), generic(half)];
`,
};

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) removeTempProject(root);
});

function project(): string {
  const root = tempProject("sites");
  roots.push(root);
  writeFileSync(path.join(root, "package.json"), JSON.stringify({ type: "module", private: true }));
  writeFileSync(path.join(root, "tsconfig.json"), tsconfig());
  for (const [name, text] of Object.entries(FILES)) writeFileSync(path.join(root, "src", name), text);
  return root;
}

/** Derives tools.ts on `backend`: the calls whose signature was resolved, and the tools found. */
function derive(backend: Backend, root: string): { resolved: string[]; tools: string[] } {
  const resolved: string[] = [];
  const resolve = backend.resolvedSignature.bind(backend);
  backend.resolvedSignature = (call) => {
    if (call.getSourceFile().fileName.endsWith("tools.ts")) resolved.push(call.getText());
    return resolve(call);
  };
  const file = backend.sourceFile(path.join(root, "src", "tools.ts"));
  if (!file) throw new Error("tools.ts is not in the program");
  const derived = new Derivation(backend).deriveFile(file);
  return { resolved: resolved.sort(), tools: derived.sites.map(({ spec }) => spec.name) };
}

/** The sites, on both compilers. */
const TOOLS = ["greet", "count", "twice"];

/** Calls of the file's own helper, declared where toolwright is imported (it returns a number: its type names no signature). */
const HELPER = ["local(n)", "local(parts.length)"];

describe("site finding: which calls it resolves", () => {
  it("TypeScript 5: only calls of functions declared where toolwright's types reach", () => {
    const root = project();
    const program = ts.createProgram(
      Object.keys(FILES).map((name) => path.join(root, "src", name)),
      { ...TEST_COMPILER_OPTIONS, noEmit: true },
    );
    // In process, every call a spec may be passed to is resolved.
    expect(derive(new Ts5Backend(program), root)).toEqual({
      resolved: [...HELPER, "either(twice)", "generic(half)", "myTool(count)", "tool(greet)"].sort(),
      tools: TOOLS,
    });
  });

  it("TypeScript 7: the same sites, resolving only the calls whose type does not name their signature", () => {
    const root = project();
    const session = new Ts7Session(loadTs7(TS7), { cwd: root, tsconfig: path.join(root, "tsconfig.json") });
    try {
      expect(derive(session.open().backend, root)).toEqual({
        resolved: [...HELPER, "either(twice)", "generic(half)"].sort(),
        tools: TOOLS,
      });
    } finally {
      session.close();
    }
  });
});

// Which lists site finding asks the contextual type of: a bare function in a list is a tool
// site when the list's context types it as tools. The initializer of a variable with a plain
// name and no annotation has no context, in a TypeScript file: that list is not asked about.
const LISTS = `import { tool, type ToolInput } from "toolwright";

/** Adds one to a number. @param n The number. */
function inc(n: number): number {
  return n + 1;
}

/** Takes tools. @param tools The tools. */
function register(tools: ToolInput[]): number {
  return tools.length;
}

export const plain = [tool(inc)];
export const typed: ToolInput[] = [inc];
export const passed = register([inc]);
const [first] = [inc];
export const kept = first;
`;

/** Derives lists.ts on `backend`: the lists whose contextual type was asked, and the tools found. */
function lists(backend: Backend, file: string): { asked: string[]; tools: number } {
  const asked: string[] = [];
  const contextual = backend.contextualType.bind(backend);
  backend.contextualType = (at) => {
    asked.push(at.getText());
    return contextual(at);
  };
  const source = backend.sourceFile(file);
  if (!source) throw new Error("lists.ts is not in the program");
  return { asked, tools: new Derivation(backend).deriveFile(source).sites.length };
}

describe("site finding: which lists it asks the context of", () => {
  // Sites: `tool(inc)`, and `[inc]` typed by its annotation and by register's parameter. The
  // binding pattern's list is asked too (a pattern types its initializer), and holds no site.
  const expected = { asked: ["[inc]", "[inc]", "[inc]"], tools: 3 };

  it("TypeScript 5: every list but a plain variable's initializer", () => {
    const root = project();
    const file = path.join(root, "src", "lists.ts");
    writeFileSync(file, LISTS);
    const program = ts.createProgram([file], { ...TEST_COMPILER_OPTIONS, noEmit: true });
    expect(lists(new Ts5Backend(program), file)).toEqual(expected);
  });

  it("TypeScript 7: the same lists", () => {
    const root = project();
    const file = path.join(root, "src", "lists.ts");
    writeFileSync(file, LISTS);
    const session = new Ts7Session(loadTs7(TS7), { cwd: root, tsconfig: path.join(root, "tsconfig.json") });
    try {
      expect(lists(session.open().backend, file)).toEqual(expected);
    } finally {
      session.close();
    }
  });
});
