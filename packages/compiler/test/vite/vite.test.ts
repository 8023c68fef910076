import { writeFileSync } from "node:fs";
import path from "node:path";
import { createServer, type ViteDevServer } from "vite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toolwright } from "../../src/vite/index.js";
import { removeTempProject, tempProject } from "../temp-project.js";

// The Vite plugin in a real dev server: the spec is spliced in before Vite strips types,
// derivation errors are one located Vite error, and editing a type in another file (a
// type-only import, which Vite itself does not track) invalidates the tool module.

let root: string;
const src = (file: string) => path.join(root, "src", file);
let server: ViteDevServer;

const writeTypes = (units: string) => writeFileSync(src("types.ts"), `export type Units = ${units};\n`);

function specOf(code: string): { parameters: { properties: { units: { enum: string[] } } } } {
  // Vite prints the object its own way: find the key, then the brace that opens it.
  const start = code.lastIndexOf("{", code.indexOf('"$toolwright"'));
  expect(start).toBeGreaterThan(-1);
  let depth = 0;
  for (let i = start; i < code.length; i++) {
    if (code[i] === "{") depth++;
    if (code[i] === "}" && --depth === 0) return new Function(`return (${code.slice(start, i + 1)});`)();
  }
  throw new Error("unterminated spec literal");
}

beforeAll(async () => {
  root = tempProject("vite");
  writeFileSync(
    path.join(root, "tsconfig.json"),
    JSON.stringify({ compilerOptions: { strict: true, module: "NodeNext", moduleResolution: "NodeNext", types: [] } }),
  );
  writeTypes('"celsius" | "fahrenheit"');
  writeFileSync(
    src("tools.ts"),
    `import { tool } from "toolwright";
import type { Units } from "./types.js";

/**
 * Current temperature in a city, for travel planning.
 * @param city City name.
 * @param units Temperature units.
 */
function getTemperature(city: string, units: Units = "celsius"): string {
  return city + units;
}

export const temperature = tool(getTemperature);
`,
  );
  server = await createServer({
    configFile: false,
    root,
    logLevel: "silent",
    appType: "custom",
    server: { middlewareMode: true, hmr: false },
    optimizeDeps: { noDiscovery: true, include: [] },
    plugins: [toolwright()],
  });
});

afterAll(async () => {
  await server?.close();
  removeTempProject(root);
});

describe("vite plugin", () => {
  it("splices the spec into the module Vite serves", async () => {
    const result = await server.transformRequest("/src/tools.ts");
    expect(specOf(result?.code ?? "").parameters.properties.units.enum).toEqual(["celsius", "fahrenheit"]);
    expect(result?.code).not.toContain("Units"); // the types are stripped after the plugin ran
  });

  it("re-derives the tool module when a type it imports changes", async () => {
    writeTypes('"celsius" | "fahrenheit" | "kelvin"');
    const deadline = Date.now() + 30_000;
    let units: string[] = [];
    // Vite learns of the change from its file watcher; poll the served module until it does.
    while (Date.now() < deadline) {
      const result = await server.transformRequest("/src/tools.ts");
      units = specOf(result?.code ?? "").parameters.properties.units.enum;
      if (units.length === 3) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(units).toEqual(["celsius", "fahrenheit", "kelvin"]);
  });

  it("reports every derivation problem of a file in one located error", async () => {
    writeFileSync(
      src("bad.ts"),
      `import { tool } from "toolwright";

/**
 * Count the atoms in a molecule, exactly.
 * @param atoms Number of atoms.
 * @param when When they were counted.
 */
function countAtoms(atoms: bigint, when: symbol): string {
  return String(atoms) + String(when);
}

export const count = tool(countAtoms);
`,
    );
    const error = await server.transformRequest("/src/bad.ts").then(
      () => undefined,
      (e: Error & { loc?: { line: number; column: number } }) => e,
    );
    expect(error?.message).toMatch(/bad\.ts:8:\d+: TW990001: .*bigint/);
    expect(error?.message).toMatch(/bad\.ts:8:\d+: TW990001: .*symbol/);
    expect(error?.loc?.line).toBe(8);
  });
});
