import { SchemaDefinitionError } from "../errors.js";
import { makeSchema, type Schema, valueValidator } from "../standard/schema.js";
import { callSiteOf, TRANSFORMER_FIX } from "../tools/missing-spec.js";
import { isRejectedSpec } from "../tools/rejected-spec.js";
import { lookupGeneratedSchema } from "./generated-schemas.js";
import { type CompiledSchema, isSchemaSpec, type SchemaSpec } from "./spec.js";

/** Options of `schema<T>(options)`; each one wins over what the compiler derived. */
export interface SchemaOptions {
  /**
   * What providers call the format (`json_schema.name`), `^[a-zA-Z0-9_-]{1,64}$`; defaults
   * to the type's name. Under `toolwright gen` (no transformer) it is also how the call
   * finds its generated spec, so there it is required.
   */
  readonly name?: string;
  /** Sent with the schema where an API takes one; defaults to the type's TSDoc summary. */
  readonly description?: string;
}

const NAME = /^[a-zA-Z0-9_-]{1,64}$/;

function noSpec(options: SchemaOptions | undefined, given: unknown): SchemaDefinitionError {
  const label = options?.name === undefined ? "schema()" : `schema({ name: "${options.name}" })`;
  if (isRejectedSpec(given)) {
    return new SchemaDefinitionError(
      `${label} was rejected by the build, which reported: ${given.errors.join(" ")} ` +
        `The build still emitted this file (tsc does unless "noEmitOnError" is set), so it has no schema. ` +
        `Fix: correct the error above and rebuild.`,
    );
  }
  const gen =
    options?.name === undefined
      ? ` With 'toolwright gen', give the call a name (schema<Answer>({ name: "answer" })): that is how it finds its spec.`
      : "";
  // Frames above this one: schema(), then the user's call site.
  return new SchemaDefinitionError(
    `${label} (called ${callSiteOf(2)}) has no compiled spec: the toolwright transformer did not run on this file, ` +
      `so the type argument left no schema. ${TRANSFORMER_FIX}${gen}`,
  );
}

function nameOf(options: SchemaOptions | undefined, spec: SchemaSpec): string {
  const name = options?.name ?? spec.name;
  if (typeof name === "string" && NAME.test(name)) return name;
  throw new SchemaDefinitionError(
    `schema() at ${spec.source.file}:${spec.source.line}: the name ${JSON.stringify(name)} is not one providers accept; ` +
      `use 1 to 64 letters, digits, "_" or "-", e.g. { name: "weather_report" }.`,
  );
}

/**
 * The schema of the type `T`, derived by the compiler at build time: pass it as an agent's
 * (or one run's) `output` for a typed final answer, or anywhere a Standard Schema is taken.
 * The compiler appends its spec as the hidden last argument; without the transformer this
 * throws at once, naming the call and the fix.
 *
 * @example
 * ```ts
 * /** A weather report for one city. *\/
 * interface Report { city: string; celsius: number; conditions: "sun" | "rain" | "snow" }
 * const agent = new Agent({ name: "weather", model, tools: [getWeather], output: schema<Report>() });
 * const { output } = await agent.run("Weather in Paris?"); // output: Report | undefined
 * ```
 */
export function schema<T>(options?: SchemaOptions, spec?: CompiledSchema): Schema<T> {
  const compiled = isSchemaSpec(spec) ? spec : lookupGeneratedSchema(options?.name);
  if (!compiled) throw noSpec(options, spec);
  const name = nameOf(options, compiled);
  const target = { schema: compiled.schema, validator: compiled.validator };
  return makeSchema<T>({
    name,
    description: options?.description ?? compiled.description,
    jsonSchema: compiled.schema,
    validate: valueValidator<T>(name, target),
    target,
  });
}
