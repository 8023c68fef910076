import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { removeTempProject } from "../../packages/compiler/test/temp-project.js";
import { projectWith, TS5, toolwright, tsconfig } from "./project.js";

// The newest TypeScript 7 published when this was written (`typescript-7-newest`, pinned in
// test/package.json beside the 7.0.x the compiler is built for; a 7.1 development build,
// whose API moved to typescript/sync and changed shape), then `toolwright gen` on a project
// using it. A 7.0.x must derive what TypeScript 5.9 derives; a release of another API must
// be refused at start-up, naming the version found and the fix, before anything runs.
// Bump the alias to the newest 7.x when one is published and run this file.

const NEWEST = path.dirname(createRequire(import.meta.url).resolve("typescript-7-newest/package.json"));
const newest = (JSON.parse(readFileSync(path.join(NEWEST, "package.json"), "utf8")) as { version: string }).version;

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

describe(`the newest TypeScript 7 (${newest})`, () => {
  it("derives as TypeScript 5.9 if it is a 7.0 release, or is refused at start-up naming its version and the fix", async () => {
    expect(newest).toMatch(/^7\./);
    const root = projectWith("newest-ts7", NEWEST, { "tsconfig.json": tsconfig() });
    roots.push(root);
    writeFileSync(path.join(root, "src", "tools.ts"), TOOLS);
    const result = await toolwright(root, ["gen"]);
    if (/^7\.0\.\d+$/.test(newest)) {
      expect(result).toMatchObject({ code: 0, out: "wrote 1 tool spec to src/toolwright.gen.ts\n" });
      const reference = projectWith("newest-ts7-on-5", TS5, { "tsconfig.json": tsconfig() });
      roots.push(reference);
      writeFileSync(path.join(reference, "src", "tools.ts"), TOOLS);
      await toolwright(reference, ["gen"]);
      const written = (dir: string) => readFileSync(path.join(dir, "src", "toolwright.gen.ts"), "utf8");
      expect(written(root)).toBe(written(reference));
    } else {
      expect(result.code).toBe(1);
      expect(result.out).toBe("");
      expect(result.err).toBe(
        `toolwright gen: toolwright derives schemas through TypeScript 7.0's API (typescript/unstable/sync, tested with 7.0.2), and this project's typescript is ${newest}. Fix: install a 7.0 release ("typescript": "~7.0.2" in devDependencies), or, to keep this one, add 7.0 beside it under an alias ("typescript-7": "npm:typescript@7.0.2") and run toolwright with --typescript node_modules/typescript-7.\n`,
      );
    }
  });
});
