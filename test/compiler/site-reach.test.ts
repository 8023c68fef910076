import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { Ts5Backend } from "../../packages/compiler/src/backend/ts5/ts5-backend.js";
import { GenCache } from "../../packages/compiler/src/cli/gen-cache.js";
import { deriveSpecs } from "../../packages/compiler/src/derive-specs.js";
import { compilerModuleFacts, type ModuleFacts } from "../../packages/compiler/src/module-facts.js";
import { SiteReach } from "../../packages/compiler/src/site-reach.js";
import { ToolwrightTypes } from "../../packages/compiler/src/toolwright-types.js";
import { removeTempProject, tempProject } from "../../packages/compiler/test/temp-project.js";
import { TEST_COMPILER_OPTIONS } from "./compile-fixtures.js";

let root: string;

beforeEach(() => {
  root = tempProject("site-reach");
});

afterEach(() => {
  removeTempProject(root);
});

/** Writes `files` under src/ and builds one Program of them. */
function programOf(files: Record<string, string>): ts.Program {
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(root, "src", name), text);
  return ts.createProgram(
    Object.keys(files).map((name) => path.join(root, "src", name)),
    { ...TEST_COMPILER_OPTIONS, noEmit: true },
  );
}

/**
 * For each of `files`, whether {@link SiteReach} lets it hold tool sites: asking the
 * compiler, and the same from the stored import graph of `toolwright gen`'s cache on a
 * second run (every file unchanged, so every stored answer is used), which must agree
 * without reading any file's text through the compiler.
 */
function reachOf(files: Record<string, string>): Record<string, boolean> {
  const program = programOf(files);
  const backend = new Ts5Backend(program);
  const types = new ToolwrightTypes(backend);
  const roots = Object.keys(files).map((name) => path.join(root, "src", name));
  const reachWith = (facts: ModuleFacts) => {
    const reach = new SiteReach(backend, types, facts);
    return Object.fromEntries(Object.keys(files).map((name) => [name, reach.reaches(path.join(root, "src", name))]));
  };
  const stored = path.join(root, "node_modules", ".cache", "site-reach.json");
  const cached = () => {
    const cache = new GenCache(stored, root, "site-reach");
    cache.update(backend, roots);
    cache.save();
    return cache.moduleFacts(backend);
  };
  const asked = reachWith(compilerModuleFacts(backend));
  reachWith(cached());
  const facts = cached();
  const texts = vi.spyOn(backend, "fileText");
  expect(reachWith(facts)).toEqual(asked);
  // The cache read each library's bytes when it hashed them: no text is read again.
  expect(texts).not.toHaveBeenCalled();
  texts.mockRestore();
  return asked;
}

const ADD = "export function add(a: number, b: number): number { return Math.max(a, b); }\n";

describe("SiteReach: the files that can hold a tool site", () => {
  it("excludes a file whose module references never lead to toolwright, however they chain", () => {
    expect(
      reachOf({
        "math.ts": ADD,
        "uses-math.ts": 'import { add } from "./math.js";\nexport const three = add(1, 2);\n',
        "tools.ts": 'import { tool } from "toolwright";\nimport { add } from "./uses-math.js";\n',
      }),
    ).toEqual({ "math.ts": false, "uses-math.ts": false, "tools.ts": true });
  });

  it("includes files reaching toolwright through re-exports, `export *`, type-only imports, import() types and cycles", () => {
    expect(
      reachOf({
        "helpers.ts": 'export { tool as makeTool } from "toolwright";\n',
        "barrel.ts": 'export * from "./helpers.js";\n',
        "uses-barrel.ts": 'import { makeTool } from "./barrel.js";\nexport const t = makeTool;\n',
        "types-only.ts": 'import type { ToolInput } from "toolwright";\nexport type List = ToolInput[];\n',
        "import-type.ts": 'export type List = import("./types-only.js").List;\n',
        // a.ts reaches toolwright only through b.ts, which imports a.ts back.
        "a.ts": 'import { b } from "./b.js";\nexport const a = (): unknown => b;\n',
        "b.ts": 'import { a } from "./a.js";\nimport { tool } from "toolwright";\nexport const b = [a, tool];\n',
      }),
    ).toEqual({
      "helpers.ts": true,
      "barrel.ts": true,
      "uses-barrel.ts": true,
      "types-only.ts": true,
      "import-type.ts": true,
      "a.ts": true,
      "b.ts": true,
    });
  });

  it("follows installed libraries only through one that names toolwright, however deep", () => {
    const library = (name: string, types: string) => {
      const dir = path.join(root, "node_modules", name);
      mkdirSync(dir, { recursive: true });
      writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name, version: "1.0.0", types: "index.d.ts" }));
      writeFileSync(path.join(dir, "index.d.ts"), types);
    };
    library("plain-lib", "export declare function double(n: number): number;\n");
    library("tw-helpers", 'export { tool as helperTool } from "toolwright";\n');
    library("outer-lib", 'export * from "tw-helpers";\n');
    expect(
      reachOf({
        "plain.ts": 'import { double } from "plain-lib";\nexport const four = double(2);\n',
        "outer.ts": 'import { helperTool } from "outer-lib";\nexport const t = helperTool;\n',
      }),
    ).toEqual({ "plain.ts": false, "outer.ts": true });
  });

  it("includes every file once a global declaration reaches toolwright", () => {
    const globals = 'declare global {\n  var makeTool: typeof import("toolwright").tool;\n}\nexport {};\n';
    expect(reachOf({ "globals.ts": globals, "math.ts": ADD })).toEqual({ "globals.ts": true, "math.ts": true });
  });

  it("takes toolwright's own declaration files for declaring no globals, which each file of its dist holds to", () => {
    const dist = path.join(root, "node_modules", "toolwright", "dist");
    const declarations = readdirSync(dist, { recursive: true, encoding: "utf8" })
      .filter((name) => name.endsWith(".d.ts"))
      .map((name) => path.join(dist, name));
    expect(declarations.length).toBeGreaterThan(50);
    const program = ts.createProgram(declarations, { ...TEST_COMPILER_OPTIONS, noEmit: true, noResolve: true });
    const backend = new Ts5Backend(program);
    const declaring = declarations.filter((file) =>
      backend.declaresGlobals(program.getSourceFile(file) as ts.SourceFile),
    );
    expect(declaring).toEqual([]);
  });

  it("lets deriveSpecs find a site that calls a global alias of tool() in a file without imports", () => {
    const program = programOf({
      "globals.ts": 'declare global {\n  var makeTool: typeof import("toolwright").tool;\n}\nexport {};\n',
      "tools.ts": `/** Add two numbers and return the larger one. */\n${ADD}export const adder = makeTool(add);\n`,
    });
    const file = program.getSourceFile(path.join(root, "src", "tools.ts")) as ts.SourceFile;
    expect(deriveSpecs(program, file).sites.map((s) => s.spec.name)).toEqual(["add"]);
  });
});
