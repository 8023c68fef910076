import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { removeTempProject } from "../../packages/compiler/test/temp-project.js";
import { projectWith, TS7, toolwright } from "./project.js";

// A solution tsconfig, as Vite's templates write it: tsconfig.json has `"files": []` and
// only references (tsconfig.app.json over src/, tsconfig.node.json over vite.config.ts).
// Every command is refused on it, naming the references and the -p that fixes it, and
// writes nothing; with -p on the app's project they work. Before, `gen` wrote a module of
// no tools and exited 0.

const APP = JSON.stringify({
  compilerOptions: {
    target: "ES2022",
    module: "ESNext",
    moduleResolution: "bundler",
    allowImportingTsExtensions: true,
    verbatimModuleSyntax: true,
    noEmit: true,
    strict: true,
    skipLibCheck: true,
    types: [],
  },
  include: ["src"],
});

const TOOLS = `import { tool } from "toolwright";

/**
 * Current temperature in a city.
 * @param city City name, e.g. "Oslo".
 */
function getTemperature(city: string): string {
  return city;
}

export const temperature = tool(getTemperature);
`;

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) removeTempProject(root);
});

describe("a solution tsconfig (Vite's layout) on TypeScript 7", () => {
  it("is refused by gen, build, check and print, naming its references and the fix; -p on the app's project works", async () => {
    const root = projectWith("solution", TS7, {
      "tsconfig.json": JSON.stringify({
        files: [],
        references: [{ path: "./tsconfig.app.json" }, { path: "./tsconfig.node.json" }],
      }),
      "tsconfig.app.json": APP,
      "tsconfig.node.json": JSON.stringify({
        compilerOptions: { strict: true, noEmit: true },
        include: ["vite.config.ts"],
      }),
      "vite.config.ts": "export default {};\n",
    });
    roots.push(root);
    writeFileSync(path.join(root, "src", "tools.ts"), TOOLS);
    writeFileSync(path.join(root, "src", "main.ts"), 'import "./toolwright.gen.ts";\nimport "./tools.ts";\n');
    const module = path.join(root, "src", "toolwright.gen.ts");

    for (const command of ["gen", "build", "check", "print"]) {
      expect(await toolwright(root, [command])).toEqual({
        code: 1,
        out: "",
        err: `toolwright ${command}: tsconfig.json holds no files of its own, only references to other projects (tsconfig.app.json, tsconfig.node.json), and toolwright reads one project. Fix: pass the one that holds your tools, e.g. -p tsconfig.app.json.\n`,
      });
      expect(existsSync(module)).toBe(false);
    }

    expect(await toolwright(root, ["gen", "-p", "tsconfig.app.json"])).toMatchObject({
      code: 0,
      out: "wrote 1 tool spec to src/toolwright.gen.ts\n",
    });
    expect(readFileSync(module, "utf8")).toContain('"name": "getTemperature"');
    expect(await toolwright(root, ["build", "-p", "tsconfig.app.json"])).toMatchObject({ code: 0, err: "" });
  });
});
