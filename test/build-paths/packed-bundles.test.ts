import { readdirSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PackedProject } from "./packed-project.js";

// The packed runtime's JavaScript is one bundled ES module per entry point (plus the chunks
// the entries share), not a module per source file: `import "toolwright"` reads a few files,
// not one per source module, and loads neither undici (the providers' transport, behind a dynamic
// import) nor Ajv (required on the slow path). A class two entries share is one class.
// Built by the runtime's "build" script (tsc for the types, scripts/bundle-package.mjs).

const project = new PackedProject();

/** How many modules the runtime is written in: what a file-per-module build would load, at most. */
const SOURCE_MODULES = readdirSync(path.resolve(import.meta.dirname, "../../packages/runtime/src"), {
  recursive: true,
}).filter((file) => String(file).endsWith(".ts")).length;

/** Module hooks that record every URL Node loads, and answer the list on request. */
const HOOKS = `const loaded = [];
export function initialize({ port }) {
  port.on("message", () => port.postMessage(loaded));
  port.unref();
}
export async function load(url, context, next) {
  loaded.push(url);
  return next(url, context);
}
`;

const PROBE = `import { createRequire, register } from "node:module";
import { MessageChannel } from "node:worker_threads";

const { port1, port2 } = new MessageChannel();
register("./hooks.mjs", import.meta.url, { data: { port: port2 }, transferList: [port2] });
const loadedUrls = () => new Promise((resolve) => { port1.once("message", resolve); port1.postMessage("list"); });
const required = () => Object.keys(createRequire(import.meta.url).cache);

const root = await import("toolwright");
const runtimeFiles = (await loadedUrls()).filter((url) => url.includes("/node_modules/toolwright/"));
const afterRoot = [...(await loadedUrls()), ...required()].join("\\n");
const providers = await import("toolwright/providers");
let thrown;
try {
  providers.resolveModel("no-such-provider:model");
} catch (error) {
  thrown = error;
}
port1.close();
console.log(JSON.stringify({
  runtimeFiles: runtimeFiles.map((url) => url.replace(/^.*\\/node_modules\\/toolwright\\//, "")),
  undici: afterRoot.includes("/node_modules/undici/"),
  ajv: afterRoot.includes("/node_modules/ajv/"),
  sameClass: root.ModelConfigError === providers.ModelConfigError,
  thrownName: thrown?.name,
  instanceOfRoot: thrown instanceof root.ModelConfigError && thrown instanceof root.ToolwrightError,
}));
`;

interface Probe {
  readonly runtimeFiles: readonly string[];
  readonly undici: boolean;
  readonly ajv: boolean;
  readonly sameClass: boolean;
  readonly thrownName: string | undefined;
  readonly instanceOfRoot: boolean;
}

let probe: Probe;

beforeAll(async () => {
  const { runtime } = await project.pack();
  project.write(
    "package.json",
    JSON.stringify({ name: "outside-bundles", private: true, type: "module", dependencies: { toolwright: runtime } }),
  );
  project.write("hooks.mjs", HOOKS);
  project.write("probe.mjs", PROBE);
  await project.install();
  probe = JSON.parse(await project.node("probe.mjs")) as Probe;
}, 600_000);

afterAll(() => project.remove());

describe("the packed runtime's entry points are bundles", () => {
  it('`import "toolwright"` loads its bundle and the chunks it shares, not a file per source module', () => {
    expect(probe.runtimeFiles).toContain("dist/index.js");
    const perModule = probe.runtimeFiles.filter((file) => !/^dist\/(index|chunks\/[\w-]+)\.js$/.test(file));
    expect(perModule, "packages/runtime/dist holds tsc's file-per-module JavaScript: run its build script").toEqual([]);
    // The probe imports `toolwright` and `toolwright/providers`: their bundles and shared chunks.
    expect(probe.runtimeFiles.length).toBeLessThan(SOURCE_MODULES / 5);
  });

  it('`import "toolwright"` loads neither undici nor Ajv', () => {
    expect(probe).toMatchObject({ undici: false, ajv: false });
  });

  it("an error class is one class across `toolwright` and `toolwright/providers`", () => {
    expect(probe).toMatchObject({ sameClass: true, thrownName: "ModelConfigError", instanceOfRoot: true });
  });
});
