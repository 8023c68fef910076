import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { removeTempProject } from "../../packages/compiler/test/temp-project.js";
import { projectWith, TS5, toolwright, tsconfig } from "./project.js";

// The newest TypeScript 7 published (7.1 development builds, whose API moved and changed):
// installed with npm into a temp folder, then `toolwright gen` on a project using it. A 7.0.x
// must derive what TypeScript 5.9 derives; a release of another API must be refused at
// start-up, naming the version found and the fix, before anything runs.

const run = promisify(execFile);
const npm = process.platform === "win32" ? "npm.cmd" : "npm";

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

/** Orders versions as semver does, a pre-release before its release. */
function compareVersions(a: string, b: string): number {
  const parts = (v: string) => {
    const [core = "", pre] = v.split(/-(.*)/, 2);
    return { core: core.split(".").map(Number), pre };
  };
  const x = parts(a);
  const y = parts(b);
  for (let i = 0; i < 3; i++) if (x.core[i] !== y.core[i]) return (x.core[i] ?? 0) - (y.core[i] ?? 0);
  if (x.pre === y.pre) return 0;
  if (x.pre === undefined) return 1;
  if (y.pre === undefined) return -1;
  return x.pre < y.pre ? -1 : 1;
}

let install: string;
let newest: string;
const roots: string[] = [];

beforeAll(async () => {
  const { stdout } = await run(npm, ["view", "typescript", "versions", "--json"], { encoding: "utf8" });
  const sevens = (JSON.parse(stdout) as string[]).filter((v) => v.startsWith("7."));
  newest = sevens.sort(compareVersions).at(-1) as string;
  install = mkdtempSync(path.join(tmpdir(), "toolwright-newest-ts7-"));
  writeFileSync(path.join(install, "package.json"), JSON.stringify({ private: true }));
  await run(npm, ["install", "--no-audit", "--no-fund", "--ignore-scripts", `typescript@${newest}`], { cwd: install });
}, 300_000);

afterAll(() => {
  for (const root of roots) removeTempProject(root);
  rmSync(install, { recursive: true, force: true });
});

describe(`the newest TypeScript 7`, () => {
  it("derives as TypeScript 5.9 if it is a 7.0 release, or is refused at start-up naming its version and the fix", async () => {
    const typescript = path.join(install, "node_modules", "typescript");
    const root = projectWith("newest-ts7", typescript, { "tsconfig.json": tsconfig() });
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
