import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

// The runtime's source is grouped by job (tools/, invoke/, runner/, agent/, ...), and the
// groups stand on floors: a module imports only from its own floor or the floors below.
// No module reaches itself through its imports, not even through type-only ones: a cycle
// at run time makes the evaluation order of ES modules decide whether a binding exists
// yet, and a cycle of types means two files cannot be read, or moved, one without the other.
const SRC = path.resolve(import.meta.dirname, "..", "src");

/**
 * From the ground up. An entry is a folder or a file of `src/`; a file takes the floor of
 * its most specific entry. Within a floor the groups may import each other (the files may not
 * form a cycle).
 */
const FLOORS: readonly (readonly string[])[] = [
  // The error classes, and the transcript's shapes whose outcome kinds they name.
  ["errors.ts", "model/messages.ts"],
  // A tool and one call of it; the Model interface a provider implements; a typed answer's
  // schema, and the Standard Schema every derived schema speaks; the database drivers'
  // shapes that memory and the stores take.
  ["tools", "invoke", "validation", "repair", "policy", "memory", "dialects", "model", "output", "standard", "drivers"],
  // The tool-calling loop, its records and their rendering, and the models it drives.
  ["runner", "trace", "providers", "testing"],
  // What builds and drives runs: an Agent, a served MCP tool, their telemetry, and the
  // adapters that hand tools to other runtimes (and theirs to an Agent).
  ["agent", "mcp", "telemetry", "adapters"],
  // Durable runs, which drive an Agent.
  ["store"],
  ["index.ts"],
];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? sources(full) : entry.name.endsWith(".ts") ? [full] : [];
  });
}

/** Every module `file` imports: for values or types only, statically or with `import()`. */
function imports(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
  return importedFiles
    .map((f) => f.fileName)
    .filter((name) => name.startsWith("."))
    .map((name) => path.resolve(path.dirname(file), name.replace(/\.js$/, ".ts")));
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

/** The floor of a module of `src/`, by its most specific entry in {@link FLOORS}; -1 when none names it. */
function floorOf(rel: string): number {
  let best = { floor: -1, length: -1 };
  FLOORS.forEach((entries, floor) => {
    for (const entry of entries) {
      const matches = rel === entry || rel.startsWith(`${entry}/`);
      if (matches && entry.length > best.length) best = { floor, length: entry.length };
    }
  });
  return best.floor;
}

const graph = new Map(sources(SRC).map((file) => [file, imports(file)]));
const rel = (file: string) => path.relative(SRC, file);

describe("the runtime's source layout", () => {
  it("keeps only the entry point and the error classes at the top; everything else lives in a folder by job", () => {
    const top = readdirSync(SRC, { withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => e.name);
    expect(top.sort()).toEqual(["errors.ts", "index.ts"]);
  });

  it("has no import cycle between modules, counting type-only and dynamic imports", () => {
    expect(graph.size).toBeGreaterThan(100);
    expect(cycles(graph).map((c) => c.map(rel).join(" -> "))).toEqual([]);
  });

  it("puts every module on a floor, and imports only from its own floor or below", () => {
    expect([...graph.keys()].map(rel).filter((file) => floorOf(file) < 0)).toEqual([]);
    const upward = [...graph].flatMap(([file, targets]) =>
      targets
        .filter((target) => graph.has(target) && floorOf(rel(target)) > floorOf(rel(file)))
        .map((target) => `${rel(file)} -> ${rel(target)}`),
    );
    expect(upward).toEqual([]);
  });
});
