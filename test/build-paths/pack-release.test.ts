import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PackedProject, userEnv } from "./packed-project.js";

// The release path: `npm run pack` (scripts/pack.mjs) writes tarballs that npm installs into
// a fresh project made by `npm init -y`. `npm pack` of the compiler would keep its
// `"toolwright": "workspace:^"`, which npm then cannot install (saying only where its log
// is): the compiler's prepack refuses npm and names the script instead.

const ROOT = path.resolve(import.meta.dirname, "../..");
const exec = promisify(execFile);
const project = new PackedProject();

beforeAll(async () => {
  await project.run("npm", ["init", "-y"]);
}, 60_000);

afterAll(() => project.remove());

describe("the release path", () => {
  it("npm pack of the compiler refuses, and names the script that packs it", async () => {
    const packed = exec("npm", ["pack", "--dry-run"], {
      cwd: path.join(ROOT, "packages/compiler"),
      encoding: "utf8",
      env: userEnv(),
    });
    await expect(packed).rejects.toMatchObject({
      stderr: expect.stringContaining('"toolwright": "workspace:^", which only pnpm turns into a version range'),
    });
    await expect(packed).rejects.toMatchObject({ stderr: expect.stringContaining('run "npm run pack"') });
  });

  it("writes tarballs that npm installs into a fresh project, and both packages load there", async () => {
    const { runtime, compiler } = await project.pack();
    await project.run("npm", ["install", "--no-audit", "--no-fund", runtime.slice("file:".length)]);
    await project.run("npm", ["install", "-D", "--no-audit", "--no-fund", compiler.slice("file:".length)]);
    // What npm installed: the packed versions, the compiler's runtime range resolved to the packed runtime.
    const listed = JSON.parse((await project.run("npm", ["ls", "--all", "--json"])).stdout) as {
      dependencies: Record<string, { version: string; dependencies?: Record<string, { version: string }> }>;
    };
    expect(listed.dependencies.toolwright?.version).toBe("0.1.0");
    expect(listed.dependencies["@toolwright/compiler"]?.dependencies?.toolwright?.version).toBe("0.1.0");
    project.write(
      "load.cjs",
      `const { tool } = require("toolwright");
const { main } = require("@toolwright/compiler/cli");
console.log(JSON.stringify({ tool: typeof tool, cli: typeof main }));
`,
    );
    expect(JSON.parse(await project.node("load.cjs"))).toEqual({ tool: "function", cli: "function" });
    const help = await project.run(path.join(project.dir, "node_modules/.bin/toolwright"), ["--help"]);
    expect(help.stdout).toContain("build  compile the project like tsc");
  });
});
