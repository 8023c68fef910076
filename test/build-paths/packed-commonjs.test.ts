import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PackedProject } from "./packed-project.js";

// CommonJS consumers on Node 20.19+, from the packed packages installed with npm: the
// packages are ES modules whose exports have a "default" condition, so `require()` loads
// them (Node 20.19 can require() ES modules without top-level await). Two projects: a
// `"module": "commonjs"` one and a `"type": "commonjs"` + NodeNext one, each built by tspc
// with the transformer and run with node.

const project = new PackedProject();

const TOOLS = `import { Agent, tool, type ToolContext } from "toolwright";
import { FakeModel } from "toolwright/testing";

interface Rates {
  readonly rates: Readonly<Record<"EUR" | "JPY", number>>;
}

/**
 * Convert an amount of US dollars at today's rate.
 * @param amount Amount in USD.
 * @param to Target currency.
 * @readOnly
 */
export function convert(amount: number, to: "EUR" | "JPY", ctx: ToolContext<Rates>): number {
  return amount * ctx.deps.rates[to];
}

export const converter = tool(convert);

async function main(): Promise<void> {
  const model = FakeModel.script([{ toolCalls: [{ name: "convert", args: { amount: 2, to: "JPY" } }] }, "300 yen"]);
  const agent = new Agent({ name: "fx", model, tools: [convert] });
  const result = await agent.run("2 USD in JPY?", { deps: { rates: { EUR: 0.9, JPY: 150 } } });
  const toolResult = result.messages.find((m) => m.role === "tool")?.content;
  console.log(JSON.stringify({ name: converter.name, parameters: converter.parameters, toolResult, output: result.output }));
}

void main();
`;

const EXPECTED = {
  name: "convert",
  parameters: {
    type: "object",
    properties: {
      amount: { type: "number", description: "Amount in USD." },
      to: { type: "string", enum: ["EUR", "JPY"], description: "Target currency." },
    },
    required: ["amount", "to"],
    additionalProperties: false,
  },
  toolResult: "300",
  output: "300 yen",
};

function tsconfig(compilerOptions: Record<string, unknown>): string {
  return JSON.stringify({
    compilerOptions: {
      target: "ES2022",
      strict: true,
      skipLibCheck: true,
      types: [],
      rootDir: "src",
      plugins: [{ transform: "@toolwright/compiler/transform" }],
      ...compilerOptions,
    },
    include: ["src"],
  });
}

beforeAll(async () => {
  const { runtime, compiler } = await project.pack();
  project.write(
    "package.json",
    JSON.stringify({
      name: "outside-commonjs",
      private: true,
      type: "commonjs",
      dependencies: { toolwright: runtime },
      devDependencies: { "@toolwright/compiler": compiler, typescript: "5.9.3", "ts-patch": "3.3.0" },
    }),
  );
  project.write("src/tools.ts", TOOLS);
  project.write("tsconfig.commonjs.json", tsconfig({ module: "commonjs", outDir: "dist-commonjs" }));
  project.write("tsconfig.nodenext.json", tsconfig({ module: "NodeNext", outDir: "dist-nodenext" }));
  await project.install();
}, 600_000);

afterAll(() => project.remove());

describe("CommonJS projects on the packed packages", () => {
  it.each([
    ['"module": "commonjs"', "tsconfig.commonjs.json", "dist-commonjs"],
    ['"type": "commonjs" + NodeNext', "tsconfig.nodenext.json", "dist-nodenext"],
  ])("a %s project builds with tspc and the transformer, and runs", async (_label, config, out) => {
    await project.node("node_modules/ts-patch/bin/tspc.js", "-p", config);
    const emitted = readFileSync(path.join(project.dir, out, "tools.js"), "utf8");
    expect(emitted).toContain('require("toolwright")');
    expect(emitted).toContain('{"$toolwright":1,"name":"convert"');
    expect(JSON.parse(await project.node(`${out}/tools.js`))).toEqual(EXPECTED);
  });

  // toolwright/mcp, /telemetry and /store load their optional peers (see the peers test).
  it("require() loads the entry points of both packages", async () => {
    project.write(
      "require-all.cjs",
      `const entries = [
  "toolwright", "toolwright/dialects", "toolwright/providers", "toolwright/testing", "toolwright/trace",
  "@toolwright/compiler", "@toolwright/compiler/transform", "@toolwright/compiler/esbuild",
  "@toolwright/compiler/vite", "@toolwright/compiler/cli",
];
const loaded = {};
for (const entry of entries) loaded[entry] = Object.keys(require(entry)).length > 0;
console.log(JSON.stringify(loaded));
`,
    );
    const loaded = JSON.parse(await project.node("require-all.cjs")) as Record<string, boolean>;
    expect(Object.values(loaded).every(Boolean)).toBe(true);
    expect(Object.keys(loaded)).toHaveLength(10);
  });
});
