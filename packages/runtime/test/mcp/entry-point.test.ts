import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import * as mcp from "../../src/mcp/index.js";

const src = path.resolve(import.meta.dirname, "../../src");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? sourceFiles(full) : entry.name.endsWith(".ts") ? [full] : [];
  });
}

describe("toolwright/mcp entry point", () => {
  it("exports exactly this surface", () => {
    expect(Object.keys(mcp).sort()).toEqual([
      "McpServerConfigError",
      "createMcpServer",
      "flagsOf",
      "mcpSession",
      "mcpTools",
      "portableName",
      "serveMcp",
      "serveMcpHttp",
    ]);
  });

  it("is the only part of the runtime that imports the MCP SDK, so the core never needs it", () => {
    const outside = sourceFiles(src).filter(
      (file) =>
        !file.startsWith(path.join(src, "mcp") + path.sep) &&
        readFileSync(file, "utf8").includes("@modelcontextprotocol/"),
    );
    expect(outside).toEqual([]);
    const mainIndex = readFileSync(path.join(src, "index.ts"), "utf8");
    expect(mainIndex).not.toMatch(/\.\/mcp\//);
  });
});
