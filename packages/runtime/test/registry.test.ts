import { describe, expect, it } from "vitest";
import { type CompiledSpec, SPEC_VERSION, ToolDefinitionError, ToolRegistry, tool } from "../src/index.js";

function specNamed(name: string, line: number): CompiledSpec {
  return {
    $toolwright: SPEC_VERSION,
    name,
    description: `The ${name} tool.`,
    parameters: { type: "object", properties: {}, additionalProperties: false },
    slots: [],
    flags: {},
    source: { file: `${name}.ts`, line },
  } as CompiledSpec;
}

const make = (name: string, line = 1) => tool(() => name, undefined, specNamed(name, line));

describe("ToolRegistry", () => {
  it("gives names, tools and definitions sorted by name, whatever the order of adding", () => {
    const registry = new ToolRegistry([make("zeta"), make("Alpha"), make("beta"), make("alpha")]);
    expect(registry.names()).toEqual(["Alpha", "alpha", "beta", "zeta"]);
    expect(registry.tools().map((t) => t.name)).toEqual(registry.names());
    expect(registry.definitions()).toEqual(
      registry.names().map((name) => ({
        name,
        description: `The ${name} tool.`,
        parameters: { type: "object", properties: {}, additionalProperties: false },
        flags: {},
      })),
    );
    expect(
      JSON.stringify(new ToolRegistry([make("beta"), make("zeta"), make("alpha"), make("Alpha")]).definitions()),
    ).toBe(JSON.stringify(registry.definitions()));
  });

  it("throws on a duplicate name, naming both definitions", () => {
    const registry = new ToolRegistry([make("lookup", 3)]);
    const other = tool(() => 1, { name: "lookup" }, specNamed("find", 9));
    expect(() => registry.add(other)).toThrow(ToolDefinitionError);
    expect(() => registry.add(other)).toThrow(
      'two tools are named "lookup": one defined at lookup.ts:3, the other at find.ts:9. Tool names must be unique among an agent\'s tools: rename one, with tool(fn, { name: "..." }) for a function or mcpTools(source, { prefix: "..." }) for an MCP server\'s tools, or leave one out.',
    );
  });

  it("replaces a tool when asked", () => {
    const registry = new ToolRegistry([make("lookup")]);
    const second = tool(() => 2, { name: "lookup" }, specNamed("find", 9));
    registry.add(second, { replace: true });
    expect(registry.get("lookup")).toBe(second);
    expect(registry.size).toBe(1);
  });

  it("says where a protocol tool comes from when it has no source", () => {
    const registry = new ToolRegistry([make("now")]);
    const protocol = { name: "now", description: "d", parameters: { type: "object" }, flags: {}, execute: () => 1 };
    expect(() => registry.add(protocol)).toThrow(/the other at a place with no source location/);
  });
});
