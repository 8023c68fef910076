import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PackedProject } from "./packed-project.js";

// Which TypeScript the tspc path runs on, from the packed packages: under tspc the
// transformer works with the build's own TypeScript, so it is tested with the oldest and
// the newest 5.x; TypeScript 6 gets TW990000 alone (its renumbered type flags would make
// wrong specs and misleading errors), and never a half-derived build. (The `typescript`
// peer range leaves 6.x out; npm installs a version the project names anyway.)

const project = new PackedProject();

const TOOLS = `import { tool } from "toolwright";

/**
 * Search tickets opened after a date.
 * @param since Earliest opening date.
 * @param status Only tickets in this state.
 */
function searchTickets(since: Date, status: "open" | "closed" = "open"): string {
  return \`\${since.toISOString().slice(0, 10)} \${status}\`;
}

export const search = tool(searchTickets);
console.log(JSON.stringify({ name: search.name, parameters: search.parameters }));
`;

const PARAMETERS = {
  type: "object",
  properties: {
    since: { type: "string", format: "date-time", description: "Earliest opening date." },
    status: { type: "string", enum: ["open", "closed"], description: "Only tickets in this state.", default: "open" },
  },
  required: ["since"],
  additionalProperties: false,
};

beforeAll(async () => {
  const { runtime, compiler } = await project.pack();
  project.write(
    "package.json",
    JSON.stringify({
      name: "outside-tspc-versions",
      private: true,
      type: "module",
      dependencies: { toolwright: runtime },
      devDependencies: { "@toolwright/compiler": compiler, "ts-patch": "3.3.0", typescript: "5.0.4" },
    }),
  );
  project.write(
    "tsconfig.json",
    JSON.stringify({
      compilerOptions: {
        target: "ES2022",
        module: "NodeNext",
        moduleResolution: "NodeNext",
        strict: true,
        skipLibCheck: true,
        types: [],
        rootDir: "src",
        outDir: "dist",
        plugins: [{ transform: "@toolwright/compiler/transform" }],
      },
      include: ["src"],
    }),
  );
  project.write("src/tools.ts", TOOLS);
  await project.install();
}, 600_000);

afterAll(() => project.remove());

async function useTypeScript(version: string): Promise<void> {
  await project.run("npm", ["install", "-D", `typescript@${version}`, "--prefer-offline", "--no-audit", "--no-fund"]);
}

/** Runs tspc; resolves to its output and exit code instead of throwing on a failed build. */
async function tspc(): Promise<{ code: number; output: string }> {
  try {
    const { stdout } = await project.run(process.execPath, ["node_modules/ts-patch/bin/tspc.js", "-p", "."]);
    return { code: 0, output: stdout };
  } catch (error) {
    return { code: 1, output: (error as Error).message };
  }
}

describe("tspc with the transformer on each TypeScript", () => {
  it.each(["5.0.4", "5.9.3"])("TypeScript %s builds, and the emitted tool has its schema", async (version) => {
    await useTypeScript(version);
    expect(await tspc()).toEqual({ code: 0, output: "" });
    expect(JSON.parse(await project.node("dist/tools.js"))).toMatchObject({
      name: "searchTickets",
      parameters: PARAMETERS,
    });
  });

  it("TypeScript 6 gets TW990000 alone, with the fix", async () => {
    await useTypeScript("6.0.3");
    const { output } = await tspc();
    const errors = output.split("\n").filter((line) => /error TS\d+/.test(line));
    expect(errors).toEqual([
      expect.stringContaining(
        "error TS990000: TW990000: the build runs TypeScript 6.0.3, but the toolwright transformer supports TypeScript 5.0 to 5.9.",
      ),
    ]);
    expect(output).toContain(
      "or move to TypeScript 7 and build with 'toolwright build' or 'toolwright gen' (no patching).",
    );
  });
});
