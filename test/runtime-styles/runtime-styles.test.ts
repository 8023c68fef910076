import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import {
  type FunctionTool,
  type InvokableTool,
  invoke,
  type Tool,
  type ToolInput,
  ToolRegistry,
  toTool,
} from "toolwright";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * One tool in each style a user can write, compiled by the real `tspc` with the real
 * toolwright transformer, then imported and invoked as the loop would.
 */

const here = path.dirname(fileURLToPath(import.meta.url));
const tspc = createRequire(import.meta.url).resolve("ts-patch/bin/tspc.js");

interface Compiled {
  plain: FunctionTool;
  destructured: FunctionTool;
  contextInMiddle: FunctionTool;
  escapeHatch: InvokableTool;
  zodTool: InvokableTool;
  protocol: Tool;
  inventoryTools: FunctionTool[];
  list: ToolInput[];
}

let outDir = "";
let compiled: Compiled;

beforeAll(async () => {
  // Inside the test package, so the output resolves "toolwright" and "zod" like a user's build.
  mkdirSync(path.join(here, ".tmp"), { recursive: true });
  outDir = mkdtempSync(path.join(here, ".tmp", "out-"));
  await promisify(execFile)(
    process.execPath,
    [tspc, "-p", path.join(here, "fixture/tsconfig.json"), "--outDir", outDir],
    {
      timeout: 100_000,
    },
  );
  compiled = (await import(pathToFileURL(path.join(outDir, "tools.js")).href)) as Compiled;
});

afterAll(() => {
  if (outDir) rmSync(outDir, { recursive: true, force: true });
});

describe("one tool in each style, compiled by the real transformer", () => {
  it("a plain function: positional parameters from the model's object", async () => {
    const { plain } = compiled;
    expect(plain.name).toBe("add");
    expect(plain.description).toBe("Add two numbers.");
    expect(plain.flags).toEqual({ readOnly: true });
    expect(plain.parameters).toMatchObject({ required: ["a", "b"], additionalProperties: false });
    expect(await plain.invoke('{"a": 2, "b": "40"}')).toEqual({ value: 42, content: "42", truncated: false });
    await expect(plain.invoke({ a: 2, c: 1 })).rejects.toThrow(
      'Invalid arguments for tool "add":\n- unexpected key "c"\n- missing required key "b" (number)',
    );
  });

  it("a destructured parameter: the whole object, defaults applied by the function", async () => {
    const { destructured } = compiled;
    expect(destructured.slots).toEqual([{ kind: "object" }]);
    expect((await destructured.invoke({ city: "Lyon" })).value).toEqual({ city: "Lyon", total: 120 });
    expect((await destructured.invoke({ city: "Lyon", nights: 3 })).content).toBe('{"city":"Lyon","total":360}');
  });

  it("a context in the middle: left out of the schema, injected at its position", async () => {
    const { contextInMiddle } = compiled;
    expect(Object.keys(contextInMiddle.parameters.properties as object)).toEqual(["name", "excited"]);
    const result = await contextInMiddle.invoke(
      { name: "Ada", excited: "true" },
      { deps: { greeting: "Hello" }, callId: "c1" },
    );
    expect(result.content).toBe("Hello, Ada! (greet, call c1)");
  });

  it("an escape hatch with JSON Schema", async () => {
    expect((await compiled.escapeHatch.invoke({ text: "abc" })).content).toBe("cba");
    await expect(compiled.escapeHatch.invoke({ text: 5 })).rejects.toThrow("/text: expected string, got 5 (a number)");
  });

  it("an escape hatch with zod", async () => {
    const { zodTool } = compiled;
    expect(zodTool.parameters).toMatchObject({ properties: { celsius: { type: "number", minimum: -273.15 } } });
    expect((await zodTool.invoke({ celsius: 100 })).value).toEqual({ fahrenheit: 212 });
    await expect(zodTool.invoke({ celsius: -300 })).rejects.toThrow(
      "/celsius: must be >= -273.15, got -300 (a number)",
    );
  });

  it("the protocol object, called with invoke()", async () => {
    expect((await invoke(compiled.protocol, { ms: 0 })).content).toBe('"1970-01-01T00:00:00.000Z"');
  });

  it("class methods with @tool, collected with toolsOf, this bound", async () => {
    const [count, restock] = compiled.inventoryTools;
    expect([count?.name, restock?.name]).toEqual(["count", "restock"]);
    expect((await count?.invoke({ sku: "apple" }))?.value).toBe(3);
    expect((await restock?.invoke({ sku: "apple", units: 2 }))?.value).toBe(5);
    expect((await count?.invoke({ sku: "apple" }))?.value).toBe(5);
  });

  it("a bare function in a tool list, and every style in one registry with sorted definitions", async () => {
    const [multiply] = compiled.list.map(toTool);
    expect((await invoke(multiply as Tool, { a: 6, b: 7 })).value).toBe(42);
    const registry = new ToolRegistry([
      ...compiled.list,
      compiled.plain,
      compiled.destructured,
      compiled.contextInMiddle,
      compiled.escapeHatch,
      compiled.zodTool,
      compiled.protocol,
      ...compiled.inventoryTools,
    ]);
    expect(registry.names()).toEqual([
      "add",
      "clock",
      "convert_temperature",
      "count",
      "greet",
      "multiply",
      "quoteStay",
      "restock",
      "reverse",
    ]);
  });
});
