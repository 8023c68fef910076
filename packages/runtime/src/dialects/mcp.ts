import type { JsonSchema } from "../spec.js";
import type { SchemaDialect } from "./types.js";
import { checkRootObject, NoteList, withoutMeta } from "./walk.js";

/**
 * MCP `inputSchema`: plain JSON Schema (2020-12 by default) whose root is `type: "object"`.
 * `$defs` stay at the root so `$ref`s resolve inside the one document a client receives.
 */
export const mcpDialect: SchemaDialect = {
  name: "mcp",
  toDialect(schema: JsonSchema) {
    const notes = new NoteList();
    checkRootObject(schema, notes, "MCP inputSchema");
    return { schema: withoutMeta(schema), notes: notes.notes };
  },
  check(schema) {
    return this.toDialect(schema).notes.filter((n) => n.severity !== "info");
  },
};
