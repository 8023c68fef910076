import type { GeneratedValidator, JsonSchema, ToolSpec } from "../tools/spec.js";
import type { Tool } from "../tools/tool-types.js";
import { hasDates } from "./dates.js";
import { validatorHelpers } from "./generated-helpers.js";

/**
 * A generated check: true when the value fits the schema; see {@link GeneratedValidator} for
 * `issues` and `read`. `dates`, set when the check is made, says whether its schema holds a
 * `Date` to revive.
 */
export type GeneratedCheck = ReturnType<GeneratedValidator> & { dates?: boolean };

/** What a factory made: its check, or false when it could not make one (then Ajv is used). */
type Made = GeneratedCheck | false;

// Kept on the factory itself under a hidden key: one property load per call, where a
// WeakMap lookup was a twentieth of a valid call. A factory someone froze uses the WeakMap.
const MADE = Symbol();
const made = new WeakMap<GeneratedValidator, Made>();

/** The check `factory` makes for `schema`, made on its first use; `undefined` without a factory or when it cannot make one. */
export function generatedCheckOf(
  factory: GeneratedValidator | undefined,
  schema: JsonSchema,
): GeneratedCheck | undefined {
  if (typeof factory !== "function") return undefined;
  let check = (factory as { [MADE]?: Made })[MADE] ?? made.get(factory);
  if (check === undefined) {
    try {
      check = factory(validatorHelpers, schema);
      check.dates = hasDates(schema);
    } catch {
      // Written by a newer compiler that needs a helper this runtime lacks: Ajv still works.
      check = false;
    }
    if (Object.isExtensible(factory)) Object.defineProperty(factory, MADE, { value: check });
    else made.set(factory, check);
  }
  return check || undefined;
}

/**
 * The check the compiler generated for `tool`'s parameters or output schema, made on first
 * use; `undefined` for hand-written tools, schemas outside the generator's subset, and
 * tools whose schema is no longer the one the spec was compiled with.
 */
export function generatedCheck(tool: Tool, what: "parameters" | "outputSchema"): GeneratedCheck | undefined {
  const spec = (tool as { readonly spec?: ToolSpec }).spec;
  if (spec === undefined) return undefined;
  const schema: JsonSchema | undefined = tool[what];
  if (what === "parameters") return schema === spec.parameters ? generatedCheckOf(spec.validator, schema) : undefined;
  return schema !== undefined && schema === spec.outputSchema
    ? generatedCheckOf(spec.outputValidator, schema)
    : undefined;
}
