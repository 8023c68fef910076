import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { FunctionTool } from "toolwright";
import { compileProject } from "../mcp/compile-project.js";

/** The fixture's tools, compiled by the real TypeScript compiler and the real transformer. */
export interface FixtureTools {
  readonly forecast: FunctionTool;
  readonly lookup: FunctionTool;
  readonly refund: FunctionTool;
  readonly close: FunctionTool;
  readonly tag: FunctionTool;
  readonly report: FunctionTool;
  readonly book: FunctionTool;
}

/** The order book every test starts from: what `ctx.deps` holds. */
export function shop() {
  return {
    orders: new Map([
      ["A-1", { totalCents: 12_000, refunded: false }],
      ["B-2", { totalCents: 900, refunded: false }],
    ]),
    calls: [] as string[],
  };
}

/**
 * Builds test/adapters/fixture into a folder of its own inside the test package (so the
 * output resolves "toolwright" as a user's build does) and imports it; `remove` deletes it.
 */
export async function compileFixture(): Promise<{ tools: FixtureTools; remove: () => void }> {
  const tmp = path.join(import.meta.dirname, ".tmp");
  mkdirSync(tmp, { recursive: true });
  const outDir = mkdtempSync(path.join(tmp, "out-"));
  compileProject(path.join(import.meta.dirname, "fixture", "tsconfig.json"), outDir);
  const tools = (await import(pathToFileURL(path.join(outDir, "tools.js")).href)) as FixtureTools;
  return { tools, remove: () => rmSync(outDir, { recursive: true, force: true }) };
}
