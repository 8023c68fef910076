import type { JsonSchema, ToolFlags } from "../tools/spec.js";
import type { SchemaDialect } from "./types.js";
import { checkRootObject, NoteList, withoutMeta } from "./walk.js";

/**
 * MCP `inputSchema`: plain JSON Schema whose root is `type: "object"`. MCP reads a schema
 * without `$schema` as 2020-12, so a hand-written schema that names its draft (draft-07
 * from zod 3 or another generator) keeps its `$schema`: its keywords mean what that draft
 * says (`items` as a list, `definitions`), not what 2020-12 would make of them.
 * `$defs` stay at the root so `$ref`s resolve inside the one document a client receives.
 */
export const mcpDialect: SchemaDialect = {
  name: "mcp",
  toDialect(schema: JsonSchema) {
    const notes = new NoteList();
    checkRootObject(schema, notes, "MCP inputSchema");
    const out = withoutMeta(schema);
    return { schema: schema.$schema === undefined ? out : { $schema: schema.$schema, ...out }, notes: notes.notes };
  },
  check(schema) {
    return this.toDialect(schema).notes.filter((n) => n.severity !== "info");
  },
};

/** MCP tool annotations (the behaviour hints of the MCP `Tool` type). */
export interface McpAnnotations {
  readonly readOnlyHint?: boolean;
  readonly destructiveHint?: boolean;
  readonly idempotentHint?: boolean;
  readonly openWorldHint?: boolean;
}

/**
 * MCP annotations from toolwright flags. Only flags the tool states are sent: an absent
 * hint keeps its MCP default (a client then assumes the tool may be destructive and reach
 * the open world), which is the honest reading of a tool that said nothing.
 */
export function mcpAnnotations(flags: ToolFlags): McpAnnotations | undefined {
  const hints: McpAnnotations = {
    ...(flags.readOnly === undefined ? {} : { readOnlyHint: flags.readOnly }),
    ...(flags.destructive === undefined ? {} : { destructiveHint: flags.destructive }),
    ...(flags.idempotent === undefined ? {} : { idempotentHint: flags.idempotent }),
    ...(flags.openWorld === undefined ? {} : { openWorldHint: flags.openWorld }),
  };
  return Object.keys(hints).length > 0 ? hints : undefined;
}
