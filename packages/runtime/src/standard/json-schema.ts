import { ToolwrightError } from "../errors.js";
import type { JsonSchema } from "../tools/spec.js";
import { toDraft07 } from "./draft-07.js";
import { toOpenApi30 } from "./openapi-3.js";
import { mapSubschemas, type SchemaObject } from "./subschemas.js";

/** Every node without the runtime's own keyword: a fresh copy, down to the leaves. */
function plainCopy(node: SchemaObject): SchemaObject {
  return mapSubschemas(node, "", plainCopy);
}

/** The targets of Standard JSON Schema toolwright writes. */
export const JSON_SCHEMA_TARGETS = ["draft-2020-12", "draft-07", "openapi-3.0"] as const;

/**
 * `schema` (canonical, 2020-12) as Standard JSON Schema's `target` asks for it: 2020-12 and
 * draft-07 with their `$schema`, an OpenAPI 3.0 Schema Object without one. The runtime's own
 * `x-toolwright-date` is left out (the `date-time` format says it); every call returns a
 * fresh object. A target toolwright does not write throws, as the standard asks; so does a
 * schema the target cannot express (`owner` names it in the message).
 */
export function jsonSchemaFor(schema: JsonSchema, target: string, owner: string): Record<string, unknown> {
  // A deep copy: a consumer that edits what it got (to make it strict, say) edits its own.
  const { $schema: _dialect, $id: _id, $comment: _comment, ...rest } = structuredClone(schema) as SchemaObject;
  const plain = plainCopy(rest);
  switch (target) {
    case "draft-2020-12":
      return { $schema: "https://json-schema.org/draft/2020-12/schema", ...plain };
    case "draft-07":
      return { $schema: "http://json-schema.org/draft-07/schema#", ...toDraft07(plain, owner) };
    case "openapi-3.0":
      return toOpenApi30(plain, owner);
    default:
      throw new ToolwrightError(
        `"${owner}" has no JSON Schema for target "${target}": toolwright writes ${JSON_SCHEMA_TARGETS.join(", ")}.`,
      );
  }
}
