import { type ChildProcess, execFile, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { TempProject } from "../compiler/project.js";
import { specsIn } from "./specs-in.js";

// Watch mode with the transformer (a real `tspc --watch` process) keeps schemas fresh when
// a TSDoc comment or a type in another file changes; `toolwright build` compiles with the
// transformer without patching TypeScript, with tsc's diagnostics and exit codes.

const require = createRequire(import.meta.url);
const TSPC = path.join(path.dirname(require.resolve("ts-patch/package.json")), "bin", "tspc.js");
const TOOLWRIGHT = require.resolve("@toolwright/compiler/package.json").replace(/package\.json$/, "dist/cli/bin.js");
const children: ChildProcess[] = [];

afterAll(() => {
  for (const child of children) child.kill();
});

const TYPES = (doc: string, units: string) => `export interface Query {
  /** ${doc} */
  city: string;
  /** Temperature units. */
  units?: ${units};
}
`;

const TOOLS = `import { tool } from "toolwright";
import type { Query } from "./types.js";

/**
 * Get the current weather in a city.
 * @readOnly
 */
function getWeather(query: Query): string {
  return \`sunny in \${query.city}\`;
}

export const weather = tool(getWeather);
`;

type Query = { properties: { city: { description: string }; units: { enum: string[] } } };
type Spec = { parameters: { properties: { query: Query } } };

/** The schema of the tool's `query` parameter, read back from the emitted JavaScript. */
function queryOf(project: TempProject): Query {
  const [spec] = specsIn(readFileSync(path.join(project.dir, "dist/tools.js"), "utf8")) as Spec[];
  if (!spec) throw new Error("dist/tools.js has no spec");
  return spec.parameters.properties.query;
}

/** Collects a child's output and waits for a line count of a marker, within a time bound. */
function watchOutput(child: ChildProcess) {
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  const count = (marker: RegExp) => output.split("\n").filter((l) => marker.test(l)).length;
  return {
    output: () => output,
    async waitFor(marker: RegExp, times: number, ms = 90_000): Promise<void> {
      const deadline = Date.now() + ms;
      while (count(marker) < times) {
        if (Date.now() > deadline) throw new Error(`no "${marker}" #${times} within ${ms} ms; output:\n${output}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
  };
}

describe("watch mode and toolwright build", () => {
  it("tspc --watch re-derives a schema when a TSDoc comment or a type in another file changes", async () => {
    const project = new TempProject("watch");
    project.write("src/types.ts", TYPES("City name.", '"celsius" | "fahrenheit"'));
    project.write("src/tools.ts", TOOLS);
    const child = spawn(process.execPath, [TSPC, "-p", ".", "--watch", "--preserveWatchOutput"], { cwd: project.dir });
    children.push(child);
    const watch = watchOutput(child);
    const done = /Found 0 errors\. Watching for file changes\./;

    await watch.waitFor(done, 1);
    expect(queryOf(project).properties.city.description).toBe("City name.");

    project.write("src/types.ts", TYPES("City name, e.g. Paris.", '"celsius" | "fahrenheit"'));
    await watch.waitFor(done, 2);
    expect(queryOf(project).properties.city.description).toBe("City name, e.g. Paris.");

    project.write("src/types.ts", TYPES("City name, e.g. Paris.", '"celsius" | "fahrenheit" | "kelvin"'));
    await watch.waitFor(done, 3);
    expect(queryOf(project).properties.units.enum).toEqual(["celsius", "fahrenheit", "kelvin"]);
    child.kill();
  });

  it("toolwright build --watch re-derives a schema when a type in another file changes", async () => {
    const project = new TempProject("build-watch");
    project.write("src/types.ts", TYPES("City name.", '"celsius" | "fahrenheit"'));
    project.write("src/tools.ts", TOOLS);
    const child = spawn(process.execPath, [TOOLWRIGHT, "build", "--watch"], { cwd: project.dir });
    children.push(child);
    const watch = watchOutput(child);
    const done = /Found 0 errors\. Watching for file changes\./;

    await watch.waitFor(done, 1);
    expect(queryOf(project).properties.units.enum).toEqual(["celsius", "fahrenheit"]);
    project.write("src/types.ts", TYPES("City name.", '"celsius" | "fahrenheit" | "kelvin"'));
    await watch.waitFor(done, 2);
    expect(queryOf(project).properties.units.enum).toEqual(["celsius", "fahrenheit", "kelvin"]);
    child.kill();
  });

  it("toolwright build compiles with the transformer and exits like tsc (0 clean, 2 errors with output)", async () => {
    const project = new TempProject("cli-build");
    project.write("src/types.ts", TYPES("City name.", '"celsius" | "fahrenheit"'));
    project.write("src/tools.ts", TOOLS);
    const clean = await promisify(execFile)(process.execPath, [TOOLWRIGHT, "build"], { cwd: project.dir });
    expect(clean.stdout + clean.stderr).toBe("");
    expect(queryOf(project).properties.units.enum).toEqual(["celsius", "fahrenheit"]);

    project.write("src/types.ts", TYPES("City name.", "bigint"));
    const failed = await promisify(execFile)(process.execPath, [TOOLWRIGHT, "build", "-p", "tsconfig.json"], {
      cwd: project.dir,
    }).then(
      () => ({ code: 0, stderr: "" }),
      (e: { code: number; stderr: string }) => e,
    );
    expect(failed.code).toBe(2);
    expect(failed.stderr).toMatch(/src\/tools\.ts\(\d+,\d+\): error TS990001: TW990001: .*bigint/);
    expect(failed.stderr).toContain("Found 1 error.");

    // A type-check-only build (noEmit) still reports tool problems, with tsc's exit code for it (2).
    project.write(
      "tsconfig.check.json",
      JSON.stringify({ extends: "./tsconfig.json", compilerOptions: { noEmit: true } }),
    );
    const checked = await promisify(execFile)(process.execPath, [TOOLWRIGHT, "build", "-p", "tsconfig.check.json"], {
      cwd: project.dir,
    }).then(
      () => ({ code: 0, stderr: "" }),
      (e: { code: number; stderr: string }) => e,
    );
    expect(checked.code).toBe(2);
    expect(checked.stderr).toMatch(/error TS990001: TW990001: .*bigint/);
  });
});
