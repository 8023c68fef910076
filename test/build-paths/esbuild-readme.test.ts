import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

// The esbuild snippet of the build-paths guide, taken from the guide as written, builds an ES module
// project that defines a tool with a bare `@tool` decorator and uses top-level await, and
// the bundle runs: the plugin picks `format: "esm"` in a "type": "module" package and a
// target that lowers decorators, which esbuild's defaults (cjs, esnext) get wrong.

const ROOT = path.resolve(import.meta.dirname, "../..");
const TMP = path.resolve(import.meta.dirname, "../.tmp");

const GUIDE = "docs/guides/build-paths.md";

function guideSnippet(): string {
  const guide = readFileSync(path.join(ROOT, GUIDE), "utf8");
  const section = guide.slice(guide.indexOf("## esbuild"));
  const block = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
  if (!block) throw new Error(`${GUIDE} has no \`\`\`ts block under ## esbuild`);
  return block;
}

const MAIN = `import { toolsOf, tool } from "toolwright";

class Desk {
  /**
   * Escalate a ticket to a human supervisor.
   * @param id Ticket id.
   */
  @tool
  escalate(id: string): string {
    return \`escalated \${id}\`;
  }
}

const [escalate] = toolsOf(new Desk());
const result = await escalate?.invoke({ id: "T-1" });
console.log(JSON.stringify({ name: escalate?.name, value: result?.value }));
`;

mkdirSync(TMP, { recursive: true });
// Under test/.tmp, so toolwright, @toolwright/compiler and esbuild resolve from the test workspace.
const dir = mkdtempSync(path.join(TMP, "esbuild-readme-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function write(file: string, text: string): void {
  mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
  writeFileSync(path.join(dir, file), text);
}

describe("the build-paths guide's esbuild snippet", () => {
  it("builds an ES module project with decorators and top-level await, and the bundle runs", () => {
    write("package.json", JSON.stringify({ name: "esbuild-readme", private: true, type: "module" }));
    write(
      "tsconfig.json",
      JSON.stringify({
        compilerOptions: { target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", strict: true },
        include: ["src"],
      }),
    );
    write("src/main.ts", MAIN);
    write("build.mjs", guideSnippet());
    execFileSync(process.execPath, ["build.mjs"], { cwd: dir, encoding: "utf8", stdio: "pipe" });
    const output = execFileSync(process.execPath, ["dist/main.js"], { cwd: dir, encoding: "utf8" });
    expect(JSON.parse(output)).toEqual({ name: "escalate", value: "escalated T-1" });
  });
});
