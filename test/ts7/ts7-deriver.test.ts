import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cacheFolder, type FileResult, GenCache } from "../../packages/compiler/src/cli/gen-cache.js";
import { RENDERING_STAND_IN, RenderedModule, standInOverlay } from "../../packages/compiler/src/cli/rendered-module.js";
import { Ts7Deriver } from "../../packages/compiler/src/cli/ts7-deriver.js";
import { removeTempProject } from "../../packages/compiler/test/temp-project.js";
import { projectWith, TS7, toolwright, tsconfig } from "./project.js";

// The deriver behind `toolwright gen` on TypeScript 7, in process, on a project laid out as
// the README says: the generated module in src/, imported by the entry point, so it is one
// of the program's files. The API process reads a rendering as a one-line stand-in (the
// specs cannot tell them apart) and anything else from disk.

const TOOLS = `import { tool } from "toolwright";

/**
 * Current temperature in a city.
 * @param city City name, e.g. "Oslo".
 */
function getTemperature(city: string): number {
  return city.length;
}

export const temperature = tool(getTemperature);
`;

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) removeTempProject(root);
});

describe("Ts7Deriver", () => {
  it("reads the generated module as a stand-in while it holds what toolwright last wrote, and from disk once edited", async () => {
    const root = projectWith("ts7-deriver-stand-in", TS7, { "tsconfig.json": tsconfig() });
    roots.push(root);
    writeFileSync(path.join(root, "src", "tools.ts"), TOOLS);
    writeFileSync(path.join(root, "src", "main.ts"), 'import "./toolwright.gen.js";\nimport "./tools.js";\n');
    // The CLI writes the module and records what it wrote.
    expect((await toolwright(root, ["gen"])).code).toBe(0);
    const module = path.join(root, "src", "toolwright.gen.ts");
    const rendering = readFileSync(module, "utf8");
    expect(rendering).toContain('"getTemperature"');

    const folder = cacheFolder(root) as string;
    const record = new RenderedModule(folder, module);
    const cache = new GenCache(undefined, root, "test", { file: module, written: () => record.written() });
    const deriveOnce = () => {
      const deriver = new Ts7Deriver({
        typescript: TS7,
        root,
        options: {},
        process: () => {
          const overlay = standInOverlay(cache, module);
          return { cwd: root, tsconfig: path.join(root, "tsconfig.json"), ...(overlay ? { overlay } : {}) };
        },
      });
      try {
        cache.beginRun();
        // Each file's result is heard as the run has it: the one the run returns.
        const heard = new Map<string, FileResult>();
        const onResult = (file: string, result: FileResult) => heard.set(file, result);
        const { snapshot, results } = deriver.derive(cache, undefined, { generated: module, onResult });
        expect(heard).toEqual(results);
        for (const [file, result] of heard) expect(result).toBe(results.get(file));
        return {
          module: snapshot.backend.sourceFile(module)?.text,
          tools: results.get(path.join(root, "src", "tools.ts"))?.tools.map((t) => t.spec.name),
          files: [...results.keys()].map((file) => path.relative(root, file)).sort(),
        };
      } finally {
        deriver.close();
      }
    };

    expect(deriveOnce()).toEqual({
      module: RENDERING_STAND_IN,
      tools: ["getTemperature"],
      files: ["src/main.ts", "src/tools.ts"],
    });
    // Edited by hand, the module is one of the project's inputs again.
    const edited = `${rendering}export type Extra = "edited";\n`;
    writeFileSync(module, edited);
    expect(deriveOnce().module).toBe(edited);
  });
});
