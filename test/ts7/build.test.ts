import { execFile } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { removeTempProject } from "../../packages/compiler/test/temp-project.js";
import { projectWith, TS5, TS7, toolwright } from "./project.js";

// `toolwright build` on a TypeScript 7 project: the API checks and derives, the generated
// module is written, the project's tsc emits it; the built program finds every spec.

const run = promisify(execFile);

const TOOLS = `import { tool } from "toolwright";

/**
 * Current temperature in a city.
 * @param city City name, e.g. "Oslo".
 * @param unit Unit of the answer.
 * @readOnly
 */
export function getTemperature(city: string, unit: "celsius" | "fahrenheit" = "celsius"): string {
  return \`\${city.length} \${unit}\`;
}

export const temperature = tool(getTemperature);
`;

const MAIN = `import "./toolwright.gen.js";
import { validateArguments } from "toolwright";
import { temperature } from "./tools.js";

const checked = validateArguments(temperature, { city: "Oslo", unit: "kelvin" });
console.log(JSON.stringify({ name: temperature.name, parameters: temperature.parameters, ok: checked.ok }));
`;

const ANSWER = `import "./toolwright.gen.js";
import { Agent, schema } from "toolwright";
import { FakeModel } from "toolwright/testing";

/** A weather report for one city. */
interface Report {
  city: string;
  celsius: number;
  at: Date;
}

const model = FakeModel.script(['{"city":"Oslo","celsius":"-3","at":"2026-01-05T08:00:00Z"}']);
const result = await new Agent({ name: "w", model, output: schema<Report>({ name: "report" }) }).run("Oslo?");
const at: Date | undefined = result.output?.at;
console.log(JSON.stringify({ output: result.output, isDate: at instanceof Date, sent: model.requests[0]?.output }));
`;

const CONFIG = JSON.stringify({
  compilerOptions: {
    target: "ES2022",
    module: "NodeNext",
    moduleResolution: "NodeNext",
    strict: true,
    skipLibCheck: true,
    types: [],
    rootDir: "src",
    outDir: "dist",
  },
  include: ["src"],
});

const roots: string[] = [];
function project(name: string, files: Record<string, string>, typescript = TS7): string {
  const root = projectWith(name, typescript, { "tsconfig.json": CONFIG });
  for (const [file, text] of Object.entries(files)) writeFileSync(path.join(root, "src", file), text);
  roots.push(root);
  return root;
}

afterAll(() => {
  for (const root of roots) removeTempProject(root);
});

describe("toolwright build on TypeScript 7", () => {
  it("checks, derives, writes the generated module and emits: the built program has every spec", async () => {
    const root = project("build7", { "tools.ts": TOOLS, "main.ts": MAIN });
    const result = await toolwright(root, ["build"]);
    expect(result).toEqual({ code: 0, out: "", err: "" });
    expect(existsSync(path.join(root, "src", "toolwright.gen.ts"))).toBe(true);
    expect(existsSync(path.join(root, "dist", "toolwright.gen.js"))).toBe(true);
    const { stdout } = await run(process.execPath, [path.join(root, "dist", "main.js")], { cwd: root });
    const printed = JSON.parse(stdout) as {
      name: string;
      parameters: { properties: Record<string, unknown> };
      ok: boolean;
    };
    expect(printed.name).toBe("getTemperature");
    expect(printed.parameters.properties.unit).toEqual({
      type: "string",
      enum: ["celsius", "fahrenheit"],
      description: "Unit of the answer.",
      default: "celsius",
    });
    // "kelvin" is not in the enum: the generated validator refuses it.
    expect(printed.ok).toBe(false);
  });

  it("prints every problem in tsc's order, by file and position, as the TypeScript 5 build does", async () => {
    // Type errors and tool problems, in two files, each before and after the other: the
    // checker and the derivation find them in orders of their own.
    const tools = `${TOOLS}\nexport const count: number = "three";\n/** Short. */\nexport const short = tool(function short(done: () => void) { done(); });\n`;
    const early = `import { tool } from "toolwright";\n\nexport const anonymous = tool((x: string) => x);\nexport const wrong: string = 3;\n`;
    const files = { "tools.ts": tools, "early.ts": early, "main.ts": MAIN };
    const places = (err: string) =>
      err.split("\n").flatMap((line) => {
        const found = /^(src\/[^(]+)\((\d+),(\d+)\): error TS(\d+)/.exec(line);
        return found
          ? [{ file: found[1], line: Number(found[2]), column: Number(found[3]), code: Number(found[4]) }]
          : [];
      });
    const seven = places((await toolwright(project("build7-order", files), ["build"])).err);
    expect(seven.map((p) => `${p.file}:${p.line}:${p.column} ${p.code}`)).toEqual([
      "src/early.ts:3:26 990005",
      "src/early.ts:4:14 2322",
      "src/tools.ts:15:14 2322",
      "src/tools.ts:17:22 990005",
      "src/tools.ts:17:42 990001",
    ]);
    const five = await toolwright(project("build5-order", files, TS5), ["build"]);
    expect(places(five.err), five.err).toEqual(seven);
  });

  it("reports type errors and tool errors as tsc does, and emits unless noEmitOnError", async () => {
    const broken = `${TOOLS}\nexport const count: number = "three";\nexport const anonymous = tool((x: string) => x);\n`;
    const root = project("build7-errors", { "tools.ts": broken, "main.ts": MAIN });
    const result = await toolwright(root, ["build"]);
    expect(result.code).toBe(2);
    expect(result.err).toContain(
      "src/tools.ts(15,14): error TS2322: Type 'string' is not assignable to type 'number'.",
    );
    expect(result.err).toContain('src/tools.ts(16,26): error TS990005: TW990005: tool "anonymous" has no description');
    expect(result.err).toContain("\nFound 2 errors.\n");
    // As tsc emits despite errors, the module holds the tools that have a spec.
    expect(readFileSync(path.join(root, "src", "toolwright.gen.ts"), "utf8")).toContain('"fn": "getTemperature"');
    expect(existsSync(path.join(root, "dist", "tools.js"))).toBe(true);
    writeFileSync(
      path.join(root, "tsconfig.json"),
      CONFIG.replace('"outDir":"dist"', '"outDir":"dist-skipped","noEmitOnError":true'),
    );
    const skipped = await toolwright(root, ["build"]);
    expect(skipped.code).toBe(1);
    expect(existsSync(path.join(root, "dist-skipped"))).toBe(false);
  });

  it("registers each schema<T>({ name }) call's spec: the built agent's answer is checked and typed", async () => {
    const root = project("build7-answer", { "main.ts": ANSWER });
    const result = await toolwright(root, ["build"]);
    expect(result).toEqual({ code: 0, out: "", err: "" });
    expect(readFileSync(path.join(root, "src", "toolwright.gen.ts"), "utf8")).toContain(
      'const schema0: GeneratedSchemaEntry = {\n  "name": "report",\n  "spec": {\n    "$toolwrightSchema": 1,',
    );
    const { stdout } = await run(process.execPath, [path.join(root, "dist", "main.js")], { cwd: root });
    expect(JSON.parse(stdout)).toEqual({
      output: { city: "Oslo", celsius: -3, at: "2026-01-05T08:00:00.000Z" },
      isDate: true,
      sent: expect.objectContaining({ name: "report", description: "A weather report for one city." }),
    });
  });

  it("fails the build at a schema<T>() call with no name option, which nothing could find at run time", async () => {
    const root = project("build7-answer-unnamed", {
      "main.ts": `${ANSWER}export const unnamed = schema<Report>();
`,
    });
    const result = await toolwright(root, ["build"]);
    expect(result.code).toBe(2);
    expect(result.err).toContain(
      "src/main.ts(16,24): error TS990006: TW990006: toolwright gen finds a schema() call's spec at run time by its 'name' option, and this call has none.",
    );
  });

  it("records the module it writes as toolwright's: a gen after it derives each file once, then none", async () => {
    const root = project("build7-then-gen", { "tools.ts": TOOLS, "main.ts": MAIN });
    expect((await toolwright(root, ["build"])).code).toBe(0);
    const module = path.join(root, "src", "toolwright.gen.ts");
    const built = readFileSync(module, "utf8");
    // The first gen has no cache yet; the module in the program is the build's rendering.
    expect((await toolwright(root, ["gen", "--timing"])).err).toContain("2 of 2 files derived");
    expect(readFileSync(module, "utf8")).toBe(built);
    // Not the entry point again, as it would be for a module edited by hand.
    expect((await toolwright(root, ["gen", "--timing"])).err).toContain(
      "0 of 2 files derived, 0 requests (answered from the cache, no TypeScript started)",
    );
  });

  it("says so when no file imports the generated module", async () => {
    const root = project("build7-unimported", { "tools.ts": TOOLS });
    const result = await toolwright(root, ["build"]);
    expect(result.code).toBe(0);
    expect(result.err).toBe(
      'toolwright build: no file of the project imports src/toolwright.gen.ts, so no tool finds its spec at run time. Fix: import it first in your entry point: import "./toolwright.gen.js";\n',
    );
    expect(readFileSync(path.join(root, "dist", "toolwright.gen.js"), "utf8")).toContain("registerSpecs(");
  });
});
