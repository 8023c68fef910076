import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { removeTempProject } from "../../packages/compiler/test/temp-project.js";
import { projectWith, TS5, TS7, toolwright, tsconfig } from "./project.js";

// `toolwright gen` in a project whose own TypeScript is 7.x: derived through TypeScript 7's
// API in a real CLI process, with no TypeScript 5 loaded, the same module as on 5.9.

const TOOLS = `import { tool } from "toolwright";

/** Units a reading may come in. */
type Unit = "celsius" | "fahrenheit";

/**
 * Current temperature in a city.
 * @param city City name, e.g. "Oslo".
 * @param unit Unit of the answer.
 * @readOnly
 */
export async function getTemperature(city: string, unit: Unit = "celsius"): Promise<{ value: number; unit: Unit }> {
  return { value: city.length, unit };
}

/**
 * Book a table for a party.
 * @param party How many people. @minimum 1 @maximum 12
 * @param at When, as an ISO date-time.
 */
function bookTable(party: number, at: Date, notes?: string[]): string {
  return \`\${party} \${at.toISOString()} \${notes?.join(",")}\`;
}

export const temperature = tool(getTemperature);
export const booking = tool(bookTable, { name: "book_table", destructive: false });
`;

// Prints, at exit, the TypeScript 5 compiler modules the process loaded (CommonJS, and so
// in require.cache, whether required or imported).
const PROBE = `import { createRequire } from "node:module";
const cache = createRequire(import.meta.url).cache;
process.on("exit", () => {
  const loaded = Object.keys(cache).filter((f) => /[\\\\/]typescript[\\\\/]lib[\\\\/](typescript|tsc|_tsc)\\.js$/.test(f));
  process.stderr.write("@@typescript5 " + JSON.stringify(loaded) + "\\n");
});
`;

const roots: string[] = [];
function project(name: string, typescript: string | undefined, files: Record<string, string> = {}): string {
  const root = projectWith(name, typescript, { "tsconfig.json": tsconfig(), "probe.mjs": PROBE, ...files });
  writeFileSync(path.join(root, "src", "tools.ts"), TOOLS);
  roots.push(root);
  return root;
}

afterAll(() => {
  for (const root of roots) removeTempProject(root);
});

function loadedTypeScript5(stderr: string): string[] {
  const line = stderr.split("\n").find((l) => l.startsWith("@@typescript5 "));
  if (!line) throw new Error(`the probe printed nothing:\n${stderr}`);
  return JSON.parse(line.slice("@@typescript5 ".length)) as string[];
}

describe("toolwright gen on TypeScript 7", () => {
  it("writes the module TypeScript 5.9 writes, through TypeScript 7's API, and loads no TypeScript 5", async () => {
    const on7 = project("gen7", TS7);
    const on5 = project("gen5", TS5);
    const seven = await toolwright(on7, ["gen"], ["--import", "./probe.mjs"]);
    const five = await toolwright(on5, ["gen"], ["--import", "./probe.mjs"]);
    expect(seven).toMatchObject({ code: 0, out: "wrote 2 tool specs to src/toolwright.gen.ts\n" });
    expect(five).toMatchObject({ code: 0, out: "wrote 2 tool specs to src/toolwright.gen.ts\n" });
    const written = readFileSync(path.join(on7, "src", "toolwright.gen.ts"), "utf8");
    expect(written).toBe(readFileSync(path.join(on5, "src", "toolwright.gen.ts"), "utf8"));
    expect(written).toContain('"name": "book_table"');
    expect(written).not.toContain("@ts-nocheck");
    // The probe sees TypeScript 5 where it is used, and none on the TypeScript 7 path.
    expect(loadedTypeScript5(five.err).length).toBeGreaterThan(0);
    expect(loadedTypeScript5(seven.err)).toEqual([]);
  });

  it("keys imported functions by the name they were declared with, as TypeScript 5.9 does: named, renamed, re-exported, default, through a namespace", async () => {
    const files = {
      "impl.ts": `/** Look an order up by its id. */
export function lookup(id: string): string {
  return id;
}
/** Cancel an order by its id. */
function cancel(id: string): string {
  return id;
}
export { cancel as stop };
/** Restock an item by its SKU. */
export default function restock(sku: string): string {
  return sku;
}
`,
      "more.ts": `/** Refund an order by its id. */
export const refund = (id: string): string => id;
`,
      "barrel.ts": 'export { lookup as find } from "./impl.js";\nexport * from "./more.js";\n',
      "imported.ts": `import { tool } from "toolwright";
import { find, refund } from "./barrel.js";
import restock, { lookup, lookup as renamed, stop } from "./impl.js";
import * as impl from "./impl.js";

export const tools = [
  tool(lookup),
  tool(renamed, { name: "renamed" }),
  tool(stop),
  tool(restock),
  tool(find, { name: "find" }),
  tool(refund),
  tool(impl.lookup, { name: "namespaced" }),
];
`,
    };
    const roots = [project("gen7-imports", TS7), project("gen5-imports", TS5)];
    for (const root of roots) {
      for (const [file, text] of Object.entries(files)) writeFileSync(path.join(root, "src", file), text);
      expect(await toolwright(root, ["gen"])).toMatchObject({
        code: 0,
        out: "wrote 9 tool specs to src/toolwright.gen.ts\n",
      });
    }
    const [seven, five] = roots.map((root) => readFileSync(path.join(root, "src", "toolwright.gen.ts"), "utf8"));
    expect(seven).toBe(five);
    const keys = [...(seven as string).matchAll(/"fn": "(\w*)"(?:,\s*"name": "(\w+)")?/g)].map(([, fn, name]) =>
      name ? `${fn}/${name}` : fn,
    );
    expect(keys.sort()).toEqual(
      [
        "bookTable/book_table",
        "cancel",
        "getTemperature",
        "lookup",
        "lookup/find",
        "lookup/namespaced",
        "lookup/renamed",
        "refund",
        "restock",
      ].sort(),
    );
  });

  it("--typescript chooses a TypeScript 7 beside the project's own (an alias such as typescript-7)", async () => {
    const root = project("gen7-alias", TS5);
    const result = await toolwright(root, ["gen", "--typescript", TS7], ["--import", "./probe.mjs"]);
    expect(result).toMatchObject({ code: 0, out: "wrote 2 tool specs to src/toolwright.gen.ts\n" });
    expect(loadedTypeScript5(result.err)).toEqual([]);
    const five = await toolwright(root, ["gen", "--typescript", TS5]);
    expect(five.code).toBe(1);
    expect(five.err).toContain(`holds typescript 5.9.3; it chooses a TypeScript 7 only`);
  });

  it("reads toolwright's options from the tsconfig file and the configs it extends (TypeScript 7 drops plugins)", async () => {
    const root = project("gen7-extends", TS7);
    mkdirSync(path.join(root, "node_modules", "team-config"), { recursive: true });
    // A package's config, with comments and a trailing comma, as TypeScript reads them.
    writeFileSync(
      path.join(root, "node_modules", "team-config", "tsconfig.json"),
      `{
        // Shared by every service of the team.
        "compilerOptions": {
          "plugins": [{ "transform": "@toolwright/compiler/transform", "minDescriptionLength": 40, }],
        },
      }`,
    );
    writeFileSync(path.join(root, "base.json"), JSON.stringify({ extends: "team-config/tsconfig.json" }));
    const own = JSON.parse(tsconfig()) as { compilerOptions: Record<string, unknown> };
    writeFileSync(path.join(root, "tsconfig.json"), JSON.stringify({ ...own, extends: ["./base.json"] }));
    const result = await toolwright(root, ["gen"]);
    expect(result.code).toBe(1);
    expect(result.err).toContain(
      'src/tools.ts(25,28): error TS990005: TW990005: tool "getTemperature" has a description of 30 characters (the minimum is 40).',
    );
    // The project's own entry wins over the configs it extends.
    writeFileSync(
      path.join(root, "tsconfig.json"),
      tsconfig({ minDescriptionLength: 5 }).replace("{", `{"extends":"./base.json",`),
    );
    expect(await toolwright(root, ["gen"])).toMatchObject({
      code: 0,
      out: "wrote 2 tool specs to src/toolwright.gen.ts\n",
    });
  });

  it("refuses a TypeScript 7 it was not built for, naming the version found and the fix", async () => {
    const root = project("gen7-version", undefined);
    const fake = path.join(root, "fake-ts");
    mkdirSync(fake);
    writeFileSync(path.join(fake, "package.json"), JSON.stringify({ name: "typescript", version: "7.4.0" }));
    const newer = await toolwright(root, ["gen", "--typescript", "fake-ts"]);
    expect(newer.code).toBe(1);
    expect(newer.err).toContain(
      "toolwright derives schemas through TypeScript 7.0's API (typescript/unstable/sync, tested with 7.0.2), and this project's typescript is 7.4.0. Fix: install a 7.0 release",
    );
    // A 7.0 release whose API lost a method the derivation calls.
    writeFileSync(
      path.join(fake, "package.json"),
      JSON.stringify({
        name: "typescript",
        version: "7.0.99",
        type: "module",
        exports: { "./unstable/sync": "./sync.js", "./unstable/ast": "./ast.js", "./unstable/ast/is": "./is.js" },
      }),
    );
    writeFileSync(
      path.join(fake, "sync.js"),
      "export class API { updateSnapshot() {} close() {} }\nexport class Program {}\nexport class Checker { getResolvedSignature() {} }\n",
    );
    writeFileSync(path.join(fake, "ast.js"), "export {};\n");
    writeFileSync(path.join(fake, "is.js"), "export {};\n");
    const lacking = await toolwright(root, ["gen", "--typescript", "fake-ts"]);
    expect(lacking.code).toBe(1);
    expect(lacking.err).toContain("TypeScript 7.0.99's API lacks Program.getSourceFile, Program.getSourceFileNames");
    expect(lacking.err).toContain("Checker.getSignaturesOfType");
    rmSync(fake, { recursive: true, force: true });
  });
});
