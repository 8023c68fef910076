import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { TsServer } from "../../scripts/bench/lib/tsserver-client.mjs";

// An outside project, as a user would make it: the packed packages installed with npm,
// the plugin configured in tsconfig.json, built by `tspc` and by `ts-patch install` + `tsc`.
const ROOT = path.resolve(import.meta.dirname, "../..");
const PNPM = path.join(ROOT, ".tools/node_modules/.bin/pnpm");
const dir = mkdtempSync(path.join(tmpdir(), "toolwright-e2e-"));

afterAll(() => rmSync(dir, { recursive: true, force: true }));

function run(command: string, args: string[], cwd = dir): string {
  return execFileSync(command, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

function pack(pkg: string): string {
  // pnpm pack rewrites "workspace:*" into the real version; npm pack would not.
  run(PNPM, ["pack", "--pack-destination", dir], path.join(ROOT, "packages", pkg));
  const name = pkg === "runtime" ? /^toolwright-\d/ : /^toolwright-compiler-\d/;
  const file = readdirSync(dir).find((f) => name.test(f) && f.endsWith(".tgz"));
  if (!file) throw new Error(`pnpm pack of packages/${pkg} produced no tarball in ${dir}`);
  return `file:./${file}`;
}

const SOURCE = `import { tool, type ToolContext } from "toolwright";

/**
 * Convert an amount between two currencies at today's rate.
 * @param amount Amount to convert.
 * @param to Target currency.
 * @readOnly
 */
function convert(amount: number, to: "EUR" | "USD" | "JPY", ctx: ToolContext): number {
  void ctx;
  return to === "JPY" ? amount * 150 : amount;
}

export const converter = tool(convert);
console.log(JSON.stringify({ name: converter.name, description: converter.description, parameters: converter.parameters, flags: converter.flags }));
`;

const EXPECTED = {
  name: "convert",
  description: "Convert an amount between two currencies at today's rate.",
  parameters: {
    type: "object",
    properties: {
      amount: { type: "number", description: "Amount to convert." },
      to: { type: "string", enum: ["EUR", "USD", "JPY"], description: "Target currency." },
    },
    required: ["amount", "to"],
    additionalProperties: false,
  },
  flags: { readOnly: true },
};

function tsconfig(outDir: string): string {
  return JSON.stringify({
    compilerOptions: {
      target: "ES2022",
      module: "NodeNext",
      moduleResolution: "NodeNext",
      strict: true,
      skipLibCheck: true,
      outDir,
      plugins: [{ transform: "@toolwright/compiler/transform" }],
    },
    include: ["src"],
  });
}

describe("packed packages in an outside project", () => {
  it("install with npm, build with tspc and with ts-patch install + tsc, and the emitted JS carries the schemas", () => {
    const runtime = pack("runtime");
    const compiler = pack("compiler");
    writeFileSync(
      path.join(dir, "package.json"),
      JSON.stringify({
        name: "outside-project",
        private: true,
        type: "module",
        dependencies: { toolwright: runtime },
        devDependencies: { "@toolwright/compiler": compiler, typescript: "5.9.3", "ts-patch": "3.3.0" },
      }),
    );
    run("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"]);
    mkdirSync(path.join(dir, "src"));
    writeFileSync(path.join(dir, "src/main.ts"), SOURCE);

    writeFileSync(path.join(dir, "tsconfig.json"), tsconfig("dist"));
    run(process.execPath, ["node_modules/ts-patch/bin/tspc.js", "-p", "."]);
    expect(readFileSync(path.join(dir, "dist/main.js"), "utf8")).toContain('{"$toolwright":1,"name":"convert"');
    expect(JSON.parse(run(process.execPath, ["dist/main.js"]))).toEqual(EXPECTED);

    run(process.execPath, ["node_modules/ts-patch/bin/ts-patch.js", "install", "-s"]);
    writeFileSync(path.join(dir, "tsconfig.json"), tsconfig("dist-tsc"));
    run(process.execPath, ["node_modules/typescript/bin/tsc", "-p", "."]);
    expect(JSON.parse(run(process.execPath, ["dist-tsc/main.js"]))).toEqual(EXPECTED);
  }, 300_000);

  // Uses the project installed by the case above.
  it("tsserver loads @toolwright/compiler/language-service from the installed package and reports the build's errors", async () => {
    writeFileSync(
      path.join(dir, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          ...JSON.parse(tsconfig("dist")).compilerOptions,
          plugins: [{ transform: "@toolwright/compiler/transform" }, { name: "@toolwright/compiler/language-service" }],
        },
        include: ["src"],
      }),
    );
    const broken = path.join(dir, "src/broken.ts");
    writeFileSync(broken, BROKEN);
    // The project's own tsserver, probing the project folder as an editor does. tsserver
    // ignores package.json "exports": it finds the name through the language-service/ folder.
    const server = new TsServer(dir, path.join(dir, "node_modules/typescript/lib/tsserver.js"));
    try {
      server.open(broken);
      const errors = (await server.diagnostics(broken)).filter((d) => d.code === 990001);
      expect(errors.map((d) => d.text)).toEqual([
        expect.stringMatching(/^TW990001: tool "countEntries": `table` is `Map/),
      ]);
      const main = path.join(dir, "src/main.ts");
      server.open(main);
      const hover = await server.request<{ documentation: string }>("quickinfo", {
        file: main,
        ...lineAndOffset(SOURCE, "tool(convert)"),
      });
      expect(hover.body?.documentation).toContain("**toolwright tool** `convert`");
    } finally {
      await server.close();
    }
    // Node, which reads "exports", resolves the same name to the same CommonJS entry.
    expect(createRequire(path.join(dir, "package.json")).resolve("@toolwright/compiler/language-service")).toBe(
      path.join(realpathSync(dir), "node_modules/@toolwright/compiler/dist/language-service/tsserver-entry.cjs"),
    );
  }, 120_000);
});

const BROKEN = `import { tool } from "toolwright";

/**
 * Count the entries of a lookup table.
 * @param table The table to count.
 */
function countEntries(table: Map<string, number>): number {
  return table.size;
}

export const counter = tool(countEntries);
`;

function lineAndOffset(text: string, needle: string): { line: number; offset: number } {
  const before = text.slice(0, text.indexOf(needle)).split("\n");
  return { line: before.length, offset: (before.at(-1)?.length ?? 0) + 1 };
}
