import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { removeTempProject } from "../../packages/compiler/test/temp-project.js";
import { projectWith, TS5, TS7, toolwright, tsconfig } from "./project.js";

// `toolwright print` and `toolwright check` in a project whose own TypeScript is 7.x (the
// README's default install: no TypeScript 5 anywhere): they derive through TypeScript 7's
// API, as `gen` does, and print what they print on TypeScript 5.9.

const TOOLS = `import { tool } from "toolwright";

/**
 * Current temperature in a city.
 * @param city City name, e.g. "Oslo".
 * @readOnly
 */
export function getTemperature(city: string, unit: "celsius" | "fahrenheit" = "celsius"): string {
  return city + unit;
}

/**
 * Cancel an order that has not shipped yet.
 * @param id Order id. @pattern ^[A-Z]-\\d+$
 * @destructive
 */
const cancelOrder = (id: string, reason?: string): string => id + String(reason);

export const temperature = tool(getTemperature);
export const cancel = tool(cancelOrder, { name: "cancel_order" });
`;

// Fails the run if TypeScript 5's compiler is loaded (it is CommonJS, so in require.cache).
const NO_TS5 = `import { createRequire } from "node:module";
const cache = createRequire(import.meta.url).cache;
process.on("exit", () => {
  if (Object.keys(cache).some((f) => /[\\\\/]typescript[\\\\/]lib[\\\\/](typescript|tsc|_tsc)\\.js$/.test(f))) {
    process.stderr.write("TypeScript 5 was loaded\\n");
    process.exitCode = 99;
  }
});
`;

const roots: string[] = [];
function project(name: string, typescript: string): string {
  const root = projectWith(name, typescript, { "tsconfig.json": tsconfig(), "no-ts5.mjs": NO_TS5 });
  writeFileSync(path.join(root, "src", "tools.ts"), TOOLS);
  roots.push(root);
  return root;
}

afterAll(() => {
  for (const root of roots) removeTempProject(root);
});

describe("toolwright print and check on TypeScript 7", () => {
  it("print prints what it prints on TypeScript 5.9, in every mode, loading no TypeScript 5", async () => {
    const on7 = project("print7", TS7);
    const on5 = project("print5", TS5);
    for (const mode of [[], ["--dialect", "openai"], ["--dialect", "gemini"], ["--raw"]]) {
      const seven = await toolwright(on7, ["print", ...mode], ["--import", "./no-ts5.mjs"]);
      const five = await toolwright(on5, ["print", ...mode]);
      expect(seven).toMatchObject({ code: 0, err: five.err });
      expect(seven.out).toBe(five.out);
    }
    const printed = JSON.parse((await toolwright(on7, ["print"])).out) as { name: string; parameters: unknown }[];
    expect(printed.map((tool) => tool.name)).toEqual(["cancel_order", "getTemperature"]);
    expect(printed[0]?.parameters).toMatchObject({
      properties: { id: { type: "string", pattern: "^[A-Z]-\\d+$" } },
      required: ["id"],
    });
  });

  it("check --update records the lockfile TypeScript 5.9 records; check then passes, and flags a breaking edit", async () => {
    const on7 = project("check7", TS7);
    const on5 = project("check5", TS5);
    const seven = await toolwright(on7, ["check", "--update"], ["--import", "./no-ts5.mjs"]);
    expect(seven).toMatchObject({ code: 0, err: "" });
    expect(seven.out).toBe((await toolwright(on5, ["check", "--update"])).out);
    const lock = (root: string) => readFileSync(path.join(root, "toolwright.lock.json"), "utf8");
    expect(lock(on7)).toBe(lock(on5));
    expect(await toolwright(on7, ["check"], ["--import", "./no-ts5.mjs"])).toMatchObject({ code: 0 });

    const tools = path.join(on7, "src", "tools.ts");
    writeFileSync(tools, readFileSync(tools, "utf8").replace("reason?: string", "reason: string"));
    const broken = await toolwright(on7, ["check"], ["--import", "./no-ts5.mjs"]);
    expect(broken.code).toBe(1);
    expect(broken.out + broken.err).toContain("reason");
  });
});
