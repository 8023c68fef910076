import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../src/cli/index.js";
import { removeTempProject, tempProject } from "../temp-project.js";

// `toolwright gen` keys and collisions, `gen --check`, and `toolwright print` per dialect,
// on one small project (one program per command run).

let root: string;

async function cli(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const code = await main(args, {
    cwd: root,
    out: (t) => {
      out += t;
    },
    err: (t) => {
      err += t;
    },
  });
  return { code, out, err };
}

const TOOLS = `import { tool } from "toolwright";

/**
 * Look up an order by its id and show its status.
 * @param id Order id, e.g. "A-771".
 * @readOnly
 */
function lookupOrder(/** @pattern ^[A-Z]-\\\\d+$ */ id: string, verbose?: boolean): string {
  return id + String(verbose);
}

/**
 * Cancel an order that has not shipped yet.
 * @param id Order id.
 * @destructive
 */
const cancelOrder = (id: string): string => id;

export const lookup = tool(lookupOrder);
export const cancel = tool(cancelOrder, { name: "cancel_order" });
export const inline = tool((sku: string): string => sku, { name: "restock", description: "Restock one item by its SKU." });
`;

beforeAll(() => {
  root = tempProject("gen");
  writeFileSync(
    path.join(root, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: { target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", strict: true, types: [] },
      include: ["src"],
    }),
  );
  writeFileSync(path.join(root, "src", "tools.ts"), TOOLS);
});

afterAll(() => {
  removeTempProject(root);
});

describe("toolwright gen", () => {
  it("writes one entry per tool, keyed by fn.name and the literal name option, and --check agrees", async () => {
    const result = await cli("gen");
    expect(result).toMatchObject({ code: 0, err: "" });
    expect(result.out).toBe("wrote 3 tool specs to src/toolwright.gen.ts\n");
    const text = readFileSync(path.join(root, "src", "toolwright.gen.ts"), "utf8");
    expect(text).toContain('import { type GeneratedSpecEntry, registerSpecs } from "toolwright";');
    // The entries are JSON plus the generated validators (typed functions): run the module
    // as JavaScript, with a registerSpecs that keeps what it is given.
    const js = ts.transpileModule(text, { compilerOptions: { target: ts.ScriptTarget.ES2022 } }).outputText;
    const entries = new Function(
      `let registered; const registerSpecs = (entries) => { registered = entries; };\n${js.replace(/^import .*$/m, "")}\nreturn registered;`,
    )() as {
      fn: string;
      name?: string;
      spec: { name: string };
    }[];
    expect(entries.map(({ fn, name, spec }) => ({ fn, name, tool: spec.name }))).toEqual([
      { fn: "", name: "restock", tool: "restock" },
      { fn: "cancelOrder", name: "cancel_order", tool: "cancel_order" },
      { fn: "lookupOrder", name: undefined, tool: "lookupOrder" },
    ]);
    expect((await cli("gen", "--check")).code).toBe(0);
  });

  it("--check reports a module that a TSDoc edit made stale, and a missing one, and writes nothing", async () => {
    expect((await cli("gen")).code).toBe(0);
    const module = path.join(root, "src", "toolwright.gen.ts");
    const written = readFileSync(module, "utf8");
    writeFileSync(
      path.join(root, "src", "tools.ts"),
      TOOLS.replace("Cancel an order that has not shipped yet.", "Cancel an order that has not left the warehouse."),
    );
    try {
      const stale = await cli("gen", "--check");
      expect(stale).toEqual({
        code: 1,
        out: "",
        err: "src/toolwright.gen.ts is out of date; run 'toolwright gen' and commit it.\n",
      });
      expect(readFileSync(module, "utf8")).toBe(written);
    } finally {
      writeFileSync(path.join(root, "src", "tools.ts"), TOOLS);
    }
    expect(await cli("gen", "--check")).toEqual({
      code: 0,
      out: "src/toolwright.gen.ts is up to date (3 tools).\n",
      err: "",
    });
    const missing = await cli("gen", "--check", "--out", "gen/none.ts");
    expect(missing).toMatchObject({ code: 1, err: "gen/none.ts is missing; run 'toolwright gen' and commit it.\n" });
    expect(existsSync(path.join(root, "gen", "none.ts"))).toBe(false);
  });

  it("keys a bare @tool method as @tool() does, and takes one function in two tool lists as one tool", async () => {
    const desk = `import { Agent, tool, toolsOf } from "toolwright";
import { lookupOrder } from "./shared.js";

/**
 * Close a support ticket with a short note.
 * @param id Ticket id.
 */
export function closeTicket(id: string): string {
  return id;
}

export class Desk {
  /**
   * Escalate a ticket to a human supervisor.
   * @param id Ticket id.
   */
  @tool
  escalate(id: string): string {
    return id;
  }
}

export const triage = new Agent({ name: "triage", model: "openai:gpt-5-mini", tools: [closeTicket, lookupOrder] });
export const support = new Agent({ name: "support", model: "openai:gpt-5-mini", tools: [closeTicket, ...toolsOf(new Desk())] });
`;
    const shared = `import { Agent } from "toolwright";

/**
 * Look up an order by its id and show its status.
 * @param id Order id.
 */
export function lookupOrder(id: string): string {
  return id;
}

export const billing = new Agent({ name: "billing", model: "openai:gpt-5-mini", tools: [lookupOrder] });
`;
    const dir = path.join(root, "desk");
    mkdirSync(path.join(dir, "src"), { recursive: true });
    writeFileSync(path.join(dir, "tsconfig.json"), readFileSync(path.join(root, "tsconfig.json")));
    writeFileSync(path.join(dir, "src", "desk.ts"), desk);
    writeFileSync(path.join(dir, "src", "shared.ts"), shared);
    const result = await cli("gen", "-p", "desk/tsconfig.json").finally(() => rmSync(dir, { recursive: true }));
    expect(result).toMatchObject({ code: 0, err: "" });
    expect(result.out).toBe("wrote 3 tool specs to desk/src/toolwright.gen.ts\n");
  });

  it("refuses sites it cannot key at run time, and two different tools under one key", async () => {
    writeFileSync(
      path.join(root, "src", "more.ts"),
      `import { tool } from "toolwright";

/**
 * Look up an order in the archive, for old orders.
 * @param id Archived order id.
 */
function lookupOrder(id: number): string {
  return String(id);
}

/**
 * Find an archived order by its number.
 * @param n Archive number.
 */
function findArchived(n: number): string {
  return String(n);
}

const handlers = { find: findArchived };
export const archived = tool(lookupOrder);
export const found = tool(handlers.find, { name: "find_archived" });
`,
    );
    const result = await cli("gen", "--out", "gen/other.ts").finally(() => rmSync(path.join(root, "src", "more.ts")));
    expect(result.code).toBe(1);
    expect(result.err).toContain("toolwright gen cannot tell this function's run-time name (fn.name)");
    expect(result.err).toMatch(
      /src\/\w+\.ts:\d+ already has a different tool for function "lookupOrder" without a name option; give one of them a distinct \{ name: "\.\.\." \} option\./,
    );
    expect(existsSync(path.join(root, "gen", "other.ts"))).toBe(false);
    expect((await cli("gen", "--check")).code).toBe(0);
  });
});

/** lookupOrder's canonical schema, which Anthropic takes as it is. */
const LOOKUP_SCHEMA = {
  type: "object",
  properties: {
    id: { type: "string", description: 'Order id, e.g. "A-771".', pattern: "^[A-Z]-\\\\d+$" },
    verbose: { type: "boolean" },
  },
  required: ["id"],
  additionalProperties: false,
};

describe("toolwright print", () => {
  it("prints, sorted by name, what every provider is given: name, description, the arguments' schema", async () => {
    const printed = await cli("print");
    expect(printed.code).toBe(0);
    const tools = JSON.parse(printed.out) as Record<string, unknown>[];
    expect(tools.map((t) => t.name)).toEqual(["cancel_order", "lookupOrder", "restock"]);
    expect(tools[1]).toEqual({
      name: "lookupOrder",
      description: "Look up an order by its id and show its status.",
      parameters: LOOKUP_SCHEMA,
    });
    for (const tool of tools) expect(Object.keys(tool)).toEqual(["name", "description", "parameters"]);
  });

  it("prints the spec as the compiler writes it with --raw, toolwright's own keys included", async () => {
    const raw = JSON.parse((await cli("print", "--raw")).out) as Record<string, unknown>[];
    expect(raw[1]).toMatchObject({ $toolwright: 1, name: "lookupOrder", flags: { readOnly: true } });
    expect(raw[1]?.slots).toEqual([
      { kind: "arg", name: "id" },
      { kind: "arg", name: "verbose" },
    ]);
    expect(raw[1]?.source).toMatchObject({ file: "src/tools.ts" });
    const together = await cli("print", "--raw", "--dialect", "openai");
    expect(together.code).toBe(2);
    expect(together.err).toContain(
      "--raw prints the spec as the compiler writes it, --dialect as a provider receives it",
    );
  });

  it("prints each provider's envelope with --dialect", async () => {
    const openai = JSON.parse((await cli("print", "--dialect", "openai")).out) as {
      type: string;
      function: { name: string; strict: boolean; parameters: { required: string[] } };
    }[];
    expect(openai[1]).toMatchObject({ type: "function", function: { name: "lookupOrder", strict: true } });
    // Strict mode sends every key as required (optional ones nullable).
    expect(openai[1]?.function.parameters.required).toEqual(["id", "verbose"]);

    // Anthropic's envelope: name, description, and the schema as input_schema, keywords kept.
    const anthropic = JSON.parse((await cli("print", "--dialect", "anthropic")).out) as unknown[];
    expect(anthropic[1]).toEqual({
      name: "lookupOrder",
      description: "Look up an order by its id and show its status.",
      input_schema: LOOKUP_SCHEMA,
    });
    // Gemini's: the schema as parametersJsonSchema, the pattern it would refuse said in the description.
    const gemini = JSON.parse((await cli("print", "--dialect", "gemini")).out) as unknown[];
    expect(gemini[1]).toEqual({
      name: "lookupOrder",
      description: "Look up an order by its id and show its status.",
      parametersJsonSchema: {
        type: "object",
        properties: {
          id: { type: "string", description: 'Order id, e.g. "A-771". (pattern: "^[A-Z]-\\\\\\\\d+$")' },
          verbose: { type: "boolean" },
        },
        required: ["id"],
        additionalProperties: false,
      },
    });
    const mcp = JSON.parse((await cli("print", "--dialect", "mcp")).out) as { name: string; annotations?: object }[];
    expect(mcp.find((t) => t.name === "lookupOrder")?.annotations).toEqual({ readOnlyHint: true });
    expect(mcp.find((t) => t.name === "cancel_order")?.annotations).toEqual({ destructiveHint: true });
  });

  it("sends a schema OpenAI strict mode cannot take as non-strict, as the provider does", async () => {
    writeFileSync(
      path.join(root, "src", "scores.ts"),
      `import { tool } from "toolwright";

/**
 * Save the scores of several players at once.
 * @param scores Score by player name.
 */
function saveScores(scores: Record<string, number>): number {
  return Object.keys(scores).length;
}

export const save = tool(saveScores);
`,
    );
    const result = await cli("print", "--dialect", "openai").finally(() => rmSync(path.join(root, "src", "scores.ts")));
    const tools = JSON.parse(result.out) as { function: { name: string; strict: boolean } }[];
    expect(tools.find((t) => t.function.name === "saveScores")?.function.strict).toBe(false);
    expect(tools.find((t) => t.function.name === "lookupOrder")?.function.strict).toBe(true);
  });

  it("rejects an unknown dialect with the list of known ones (exit 2)", async () => {
    const result = await cli("print", "--dialect", "cohere");
    expect(result.code).toBe(2);
    expect(result.err).toContain(
      "unknown dialect 'cohere'; use one of openai, openai-strict, openai-nonstrict, anthropic, anthropic-strict, gemini, gemini-legacy, mcp.",
    );
  });
});
