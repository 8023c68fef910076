import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PackedProject } from "./packed-project.js";

// The published packages declare ranges, and each peer range is as wide as this test:
// the packed packages are installed once with the oldest and once with the newest
// versions each peer range allows, npm reports no ERESOLVE, and the peers work: esbuild
// and Vite bundle an app with the plugins, and the bundle serves a tool over the MCP SDK
// and calls it back. (better-sqlite3, a native module, is left out: it builds from source.)

const ROOT = path.resolve(import.meta.dirname, "../..");

function peersOf(pkg: string): Record<string, string> {
  const manifest = JSON.parse(readFileSync(path.join(ROOT, "packages", pkg, "package.json"), "utf8")) as {
    peerDependencies: Record<string, string>;
  };
  return manifest.peerDependencies;
}

const RANGES = { ...peersOf("runtime"), ...peersOf("compiler") };

/** The oldest version each peer range allows, written as the ranges start. */
const OLDEST: Record<string, string> = {
  esbuild: "0.27.0",
  vite: "8.0.0",
  "@modelcontextprotocol/sdk": "1.24.0",
  "@opentelemetry/api": "1.3.0",
  pg: "8.0.0",
  typescript: "5.0.4",
};

/** The newest versions, where npm's pick for the range is not one the test can use. */
const NEWEST: Record<string, string> = {
  // The range also allows TypeScript 7, which has no compiler API: the bundler plugins need a 5.x.
  typescript: "5.9.3",
};

const APP = `import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { tool } from "toolwright";
import { createMcpServer, mcpTools } from "toolwright/mcp";
import { openTelemetry } from "toolwright/telemetry";

/**
 * Current temperature in a city, for travel planning.
 * @param city City name, e.g. "Paris".
 */
function getTemperature(city: string): string {
  return \`\${city}: 21 celsius\`;
}

const temperature = tool(getTemperature, { readOnly: true });
const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
await createMcpServer([temperature], { name: "weather", version: "1.0.0" }).connect(serverSide);
const [remote] = await mcpTools(clientSide);
const result = await remote?.invoke({ city: "Paris" });
console.log(JSON.stringify({ name: remote?.name, value: result?.value, telemetry: typeof openTelemetry }));
await clientSide.close();
`;

// A string result comes back from MCP as structured content.
const EXPECTED = { name: "getTemperature", value: { result: "Paris: 21 celsius" }, telemetry: "function" };

describe.each([
  ["oldest", OLDEST],
  ["newest", NEWEST],
])("the packed packages with the %s allowed peers", (_label, pinned) => {
  const project = new PackedProject();
  let install = "";

  beforeAll(async () => {
    const { runtime, compiler } = await project.pack();
    // The newest allowed version is what npm picks for the range itself.
    const peers = Object.fromEntries(Object.keys(OLDEST).map((name) => [name, pinned[name] ?? RANGES[name]]));
    project.write(
      "package.json",
      JSON.stringify({
        name: "outside-peers",
        private: true,
        type: "module",
        dependencies: { toolwright: runtime, ...peers },
        devDependencies: { "@toolwright/compiler": compiler },
      }),
    );
    project.write("src/main.ts", APP);
    const { stdout, stderr } = await project.install();
    install = `${stdout}${stderr}`;
  }, 600_000);

  afterAll(() => project.remove());

  it("declares a range for every peer this test installs", () => {
    for (const name of Object.keys(OLDEST)) expect(RANGES[name], name).toMatch(/^(\^|>=)/);
  });

  it("installs with no ERESOLVE and the versions asked for", async () => {
    expect(install).not.toMatch(/ERESOLVE|peer dep/i);
    for (const [name, version] of Object.entries(pinned)) {
      const manifest = JSON.parse(readFileSync(path.join(project.dir, "node_modules", name, "package.json"), "utf8"));
      expect(`${name}@${manifest.version}`).toBe(`${name}@${version}`);
    }
  });

  it("esbuild bundles the app with the plugin, and it serves and calls a tool over MCP", async () => {
    project.write(
      "build.mjs",
      `import { build } from "esbuild";
import { toolwright } from "@toolwright/compiler/esbuild";
await build({ entryPoints: ["src/main.ts"], bundle: true, platform: "node", format: "esm", target: "node20", packages: "external", outfile: "out/esbuild.mjs", plugins: [toolwright()] });
`,
    );
    await project.node("build.mjs");
    expect(JSON.parse(await project.node("out/esbuild.mjs"))).toEqual(EXPECTED);
  });

  it("Vite builds the app with the plugin, and it runs", async () => {
    project.write(
      "vite.config.mjs",
      `import { toolwright } from "@toolwright/compiler/vite";
export default { plugins: [toolwright()], logLevel: "warn", build: { ssr: "src/main.ts", outDir: "out/vite", target: "node20" } };
`,
    );
    await project.node("node_modules/vite/bin/vite.js", "build");
    expect(JSON.parse(await project.node("out/vite/main.js"))).toEqual(EXPECTED);
  });
});
