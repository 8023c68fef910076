import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// The runtime's source is grouped by job (tools/, invoke/, agent/, runner/, validation/,
// ...), and no module reaches itself through the modules it imports at run time: a cycle
// makes the evaluation order of ES modules decide whether a binding exists yet.
const SRC = path.resolve(import.meta.dirname, "..", "src");

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? sources(full) : entry.name.endsWith(".ts") ? [full] : [];
  });
}

/** The modules `file` imports for their values (type-only imports are erased). */
function valueImports(file: string): string[] {
  const text = readFileSync(file, "utf8").replace(/\/\*[\s\S]*?\*\//g, "");
  const out: string[] = [];
  for (const [, keyword, names, specifier] of text.matchAll(
    /^(import|export)\s+(type\s+[^;]*?|\{[^}]*\}|\*[^;]*?|[\w$]+(?:\s*,\s*\{[^}]*\})?)\s+from\s+"(\.[^"]+)\.js"/gm,
  )) {
    if (!keyword || !names || names.startsWith("type ")) continue;
    const items = names.startsWith("{")
      ? names
          .slice(1, -1)
          .split(",")
          .map((s) => s.trim())
          .filter(Boolean)
      : [names];
    if (items.every((item) => item.startsWith("type "))) continue;
    out.push(path.resolve(path.dirname(file), `${specifier}.ts`));
  }
  return out;
}

function cycles(graph: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, "active" | "done">();
  const stack: string[] = [];
  const visit = (node: string): void => {
    state.set(node, "active");
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (!graph.has(next)) continue;
      if (state.get(next) === "active") found.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(node, "done");
  };
  for (const node of graph.keys()) if (!state.has(node)) visit(node);
  return found;
}

describe("the runtime's source layout", () => {
  it("keeps only the entry point and the error classes at the top; everything else lives in a folder by job", () => {
    const top = readdirSync(SRC, { withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => e.name);
    expect(top.sort()).toEqual(["errors.ts", "index.ts"]);
  });

  it("has no import cycle between modules at run time", () => {
    const graph = new Map(sources(SRC).map((file) => [file, valueImports(file)]));
    expect(graph.size).toBeGreaterThan(100);
    const rel = (c: string[]) => c.map((f) => path.relative(SRC, f)).join(" -> ");
    expect(cycles(graph).map(rel)).toEqual([]);
  });
});
