import { execFile, execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { startScriptedServer } from "../../scripts/demo/scripted-server.mjs";

// The esbuild snippet of the build-paths guide, taken from the guide as written, builds an ES module
// project that defines a tool with a bare `@tool` decorator and uses top-level await, and
// the bundle runs: the plugin picks `format: "esm"` in a "type": "module" package and a
// target that lowers decorators, which esbuild's defaults (cjs, esnext) get wrong. The same
// snippet bundles an app that runs durably on the SQLite store against a provider model:
// the plugin leaves the native driver external and gives the ES module bundle a `require`
// for its CommonJS dependencies (undici), which esbuild's defaults get wrong too.

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

const DURABLE_MAIN = `import { Agent, tool } from "toolwright";
import { resolveModel } from "toolwright/providers";
import { openSqliteStore, startRun } from "toolwright/store";

/**
 * Current weather in a city.
 * @param city City name, e.g. "Paris".
 */
function weather(city: string): string {
  return \`\${city}: 21 celsius, clear\`;
}

const model = resolveModel(\`openai-compatible:helpdesk@\${process.env.MODEL_URL}\`);
const agent = new Agent({ name: "helpdesk", model, tools: [tool(weather, { readOnly: true })] });
const store = await openSqliteStore({ path: "runs.db" });
const result = await startRun(agent, "What is the weather in Paris?", { store });
const stored = await store.get(result.runId);
console.log(JSON.stringify({ status: result.status, output: result.output, stored: stored?.status }));
`;

const TSCONFIG = JSON.stringify({
  compilerOptions: { target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", strict: true },
  include: ["src"],
});

mkdirSync(TMP, { recursive: true });
// Under test/.tmp, so toolwright, @toolwright/compiler and esbuild resolve from the test workspace.
const dir = mkdtempSync(path.join(TMP, "esbuild-readme-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function write(file: string, text: string, root = dir): void {
  mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  writeFileSync(path.join(root, file), text);
}

describe("the build-paths guide's esbuild snippet", () => {
  it("builds an ES module project with decorators and top-level await, and the bundle runs", () => {
    write("package.json", JSON.stringify({ name: "esbuild-readme", private: true, type: "module" }));
    write("tsconfig.json", TSCONFIG);
    write("src/main.ts", MAIN);
    write("build.mjs", guideSnippet());
    execFileSync(process.execPath, ["build.mjs"], { cwd: dir, encoding: "utf8", stdio: "pipe" });
    const output = execFileSync(process.execPath, ["dist/main.js"], { cwd: dir, encoding: "utf8" });
    expect(JSON.parse(output)).toEqual({ name: "escalate", value: "escalated T-1" });
  });

  it("bundles an app that runs durably on the SQLite store against a provider model, and the bundle runs", async () => {
    const app = mkdtempSync(path.join(TMP, "esbuild-durable-"));
    const server = await startScriptedServer();
    try {
      write("package.json", JSON.stringify({ name: "esbuild-durable", private: true, type: "module" }), app);
      write("tsconfig.json", TSCONFIG, app);
      write("src/main.ts", DURABLE_MAIN, app);
      write("build.mjs", guideSnippet(), app);
      // The app's `npm install better-sqlite3`: a native module, so the runtime's built copy.
      const driver = path.dirname(
        createRequire(path.join(ROOT, "packages/runtime/")).resolve("better-sqlite3/package.json"),
      );
      mkdirSync(path.join(app, "node_modules"));
      symlinkSync(driver, path.join(app, "node_modules/better-sqlite3"));
      const built = await run(["build.mjs"], app, {});
      expect(built.stderr, "the build warns").toBe("");
      const { stdout } = await run(["dist/main.js"], app, { MODEL_URL: server.url });
      expect(JSON.parse(stdout)).toEqual({
        status: "completed",
        output: "Here is what I found: weather said Paris: 21 celsius, clear.",
        stored: "completed",
      });
    } finally {
      await server.close();
      rmSync(app, { recursive: true, force: true });
    }
  });
});

const execFileAsync = promisify(execFile);

/** Runs Node on `args` in `cwd`, asynchronously (the scripted model answers from this process). */
async function run(
  args: string[],
  cwd: string,
  env: Record<string, string>,
): Promise<{ stdout: string; stderr: string }> {
  try {
    return await execFileAsync(process.execPath, args, { cwd, encoding: "utf8", env: { ...process.env, ...env } });
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(`node ${args.join(" ")} failed in ${cwd}:\n${e.stdout ?? ""}\n${e.stderr ?? e.message}`);
  }
}
