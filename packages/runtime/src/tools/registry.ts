import { ToolDefinitionError } from "../errors.js";
import type { ToolDefinition } from "../model/model.js";
import type { CompiledFunction, SourceLocation } from "./spec.js";
import { toTool } from "./tool-input.js";
import type { Tool, ToolInput } from "./tool-types.js";

/** Options of {@link ToolRegistry.add}. */
export interface RegisterOptions {
  /** Replace a tool of the same name instead of throwing. */
  readonly replace?: boolean;
}

function sourceOf(tool: Tool): SourceLocation | undefined {
  return (tool as { spec?: { source?: SourceLocation } }).spec?.source;
}

function where(tool: Tool): string {
  const source = sourceOf(tool);
  return source ? `${source.file}:${source.line}` : "a place with no source location (a hand-written or protocol tool)";
}

/**
 * The tools of an agent, by name. Names and definitions come out sorted, so the tools
 * part of every request is byte-identical and the provider's prompt cache stays warm.
 *
 * @example
 * ```ts
 * const registry = new ToolRegistry([lookupOrder, cancelOrder]);
 * registry.get("lookupOrder"); registry.definitions();
 * ```
 */
export class ToolRegistry {
  readonly #tools = new Map<string, Tool>();

  constructor(tools: Iterable<ToolInput | CompiledFunction> = [], options: RegisterOptions = {}) {
    for (const input of tools) this.add(input, options);
  }

  /** Adds a tool; a second tool of the same name throws a {@link ToolDefinitionError} naming both, unless `replace` is set. */
  add(input: ToolInput | CompiledFunction, options: RegisterOptions = {}): Tool {
    const tool = toTool(input);
    const existing = this.#tools.get(tool.name);
    if (existing && existing !== tool && !options.replace) {
      throw new ToolDefinitionError(
        `two tools are named "${tool.name}": one defined at ${where(existing)}, the other at ${where(tool)}. ` +
          `Tool names must be unique among an agent's tools: rename one, with tool(fn, { name: "..." }) for a ` +
          `function or mcpTools(source, { prefix: "..." }) for an MCP server's tools, or leave one out.`,
        tool.name,
      );
    }
    this.#tools.set(tool.name, tool);
    return tool;
  }

  /** The tool of that name, if registered. */
  get(name: string): Tool | undefined {
    return this.#tools.get(name);
  }

  has(name: string): boolean {
    return this.#tools.has(name);
  }

  get size(): number {
    return this.#tools.size;
  }

  /** Registered names, sorted (code-unit order, the same on every machine). */
  names(): string[] {
    return [...this.#tools.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  }

  /** The tools, sorted by name. */
  tools(): Tool[] {
    return this.names().map((name) => this.#tools.get(name) as Tool);
  }

  /** What a model is offered: each tool's canonical schema, sorted by name. */
  definitions(): ToolDefinition[] {
    return this.tools().map((t) => ({
      name: t.name,
      description: t.description,
      parameters: t.parameters,
      flags: t.flags,
    }));
  }
}
