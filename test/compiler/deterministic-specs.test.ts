import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { deriveSpecs } from "@toolwright/compiler";
import type ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { specsIn, TEST_COMPILER_OPTIONS } from "./compile-fixtures.js";

// The checker numbers literal and union types in the order it happens to create them.
// A file checked before the tools (a loop over them, a test, a Vite request for another
// module) creates `3`, `2`, "high" and the enum members first; the specs must not care.
const require = createRequire(import.meta.url);
const tsp = require("ts-patch/compiler") as typeof ts;
const transformPath = require.resolve("@toolwright/compiler/transform");

const TOOLS = `import { tool } from "toolwright";

export enum Channel { Email = "email", Sms = "sms", Push = "push" }

interface Ticket {
  /** Who filed it. */
  customer: string;
  urgency: "low" | "normal" | "high";
  labels: ("bug" | "billing" | "other")[];
  via: Channel;
}

/**
 * File a support ticket.
 * @param ticket What the customer reported.
 * @param priority 1 is the highest.
 */
function fileTicket(ticket: Pick<Ticket, "urgency" | "customer" | "via" | "labels">, priority: 1 | 2 | 3 = 2): string {
  return ticket.customer + priority;
}

export const tools = [tool(fileTicket)];
`;

const LOOP = `import { Channel, tools } from "./tools.js";

// Written so that the checker meets these literals in an order unlike the tools' own.
const order: [3, 2] = [3, 2];
const urgent: "high" | "normal" = "high";
const label: "other" | "billing" = "other";
const first: Channel.Push | Channel.Sms = Channel.Push;
for (const t of tools) console.log(t.name, order, urgent, label, first);
`;

let dir: string;

beforeAll(() => {
  const base = path.join(import.meta.dirname, "..", ".tmp");
  mkdirSync(base, { recursive: true });
  dir = mkdtempSync(path.join(base, "deterministic-"));
  writeFileSync(path.join(dir, "tools.ts"), TOOLS);
  writeFileSync(path.join(dir, "loop.ts"), LOOP);
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

const options = (): ts.CompilerOptions => ({
  ...TEST_COMPILER_OPTIONS,
  noEmitOnError: false,
  outDir: path.join(dir, "out"),
  plugins: [{ transform: transformPath }] as unknown as ts.PluginImport[],
});

/** Emits with the transformer after type-checking `first` (if any) and returns the tools' spec text. */
function transformerSpecs(roots: string[], first?: string): string {
  const program = tsp.createProgram(
    roots.map((r) => path.join(dir, r)),
    options(),
  );
  if (first) program.getSemanticDiagnostics(program.getSourceFile(path.join(dir, first)));
  let js = "";
  const emitted = program.emit(undefined, (file, text) => {
    if (file.endsWith("tools.js")) js = text;
  });
  expect(emitted.diagnostics.filter((d) => d.code >= 990000)).toEqual([]);
  return JSON.stringify(specsIn(js));
}

/** Derives through `deriveSpecs`, as the bundler plugins and `toolwright gen` do. */
function derivedSpecs(roots: string[], first?: string): string {
  const program = tsp.createProgram(
    roots.map((r) => path.join(dir, r)),
    options(),
  );
  if (first) program.getSemanticDiagnostics(program.getSourceFile(path.join(dir, first)));
  const file = program.getSourceFile(path.join(dir, "tools.ts")) as ts.SourceFile;
  return JSON.stringify(deriveSpecs(program, file).sites.map((s) => s.spec));
}

describe("specs do not depend on the order files are checked", () => {
  it("gives the same bytes whichever file the checker meets first, on the transformer and deriveSpecs paths", () => {
    const reference = transformerSpecs(["tools.ts", "loop.ts"]);
    const variants = [
      transformerSpecs(["loop.ts", "tools.ts"]),
      transformerSpecs(["tools.ts", "loop.ts"], "loop.ts"),
      transformerSpecs(["loop.ts", "tools.ts"], "loop.ts"),
      derivedSpecs(["tools.ts", "loop.ts"]),
      derivedSpecs(["loop.ts", "tools.ts"], "loop.ts"),
    ];
    for (const variant of variants) expect(variant).toBe(reference);
  });

  it("lists enum and union members in source order", () => {
    const [spec] = JSON.parse(transformerSpecs(["loop.ts", "tools.ts"], "loop.ts")) as {
      parameters: { properties: Record<string, { enum?: unknown[]; properties?: Record<string, unknown> }> };
    }[];
    const { ticket, priority } = spec?.parameters.properties ?? {};
    expect(priority?.enum).toEqual([1, 2, 3]);
    expect(ticket?.properties).toMatchObject({
      urgency: { enum: ["low", "normal", "high"] },
      labels: { items: { enum: ["bug", "billing", "other"] } },
      via: { enum: ["email", "sms", "push"] },
    });
    // Pick keeps the interface's member order, not the order of the picked keys.
    expect(Object.keys(ticket?.properties ?? {})).toEqual(["customer", "urgency", "labels", "via"]);
  });
});
