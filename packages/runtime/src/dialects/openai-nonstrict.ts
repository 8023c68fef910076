import type { JsonSchema } from "../tools/spec.js";
import type { SchemaDialect } from "./types.js";
import { checkRootObject, NoteList, withoutMeta } from "./walk.js";

/**
 * OpenAI function calling without strict mode (also what OpenAI-compatible local servers
 * get): the canonical schema as it is, minus `$schema`; the root must be an object.
 */
export const openAiNonStrictDialect: SchemaDialect = {
  name: "openai-nonstrict",
  toDialect(schema: JsonSchema) {
    const notes = new NoteList();
    checkRootObject(schema, notes, "OpenAI function calling");
    return { schema: withoutMeta(schema), notes: notes.notes };
  },
  check(schema) {
    return this.toDialect(schema).notes.filter((n) => n.severity !== "info");
  },
};
