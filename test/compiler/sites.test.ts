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
// toolwright module) are not asked about. Both compilers, on one project.

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
`,
  "tools.ts": `import { tool } from "toolwright";
import { shout } from "./helpers.js";
import { myTool } from "./wrap.js";

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

export const tools = [tool(greet), myTool(count)];
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

const EXPECTED = {
  // The two sites, and the file's own helper (declared where toolwright is imported).
  resolved: ["local(n)", "local(parts.length)", "myTool(count)", "tool(greet)"],
  tools: ["greet", "count"],
};

describe("site finding: which calls it resolves", () => {
  it("TypeScript 5: only calls of functions declared where toolwright's types reach", () => {
    const root = project();
    const program = ts.createProgram(
      Object.keys(FILES).map((name) => path.join(root, "src", name)),
      { ...TEST_COMPILER_OPTIONS, noEmit: true },
    );
    expect(derive(new Ts5Backend(program), root)).toEqual(EXPECTED);
  });

  it("TypeScript 7: the same calls, so the library calls in a tool's body cost no request", () => {
    const root = project();
    const session = new Ts7Session(loadTs7(TS7), { cwd: root, tsconfig: path.join(root, "tsconfig.json") });
    try {
      expect(derive(session.open().backend, root)).toEqual(EXPECTED);
    } finally {
      session.close();
    }
  });
});
