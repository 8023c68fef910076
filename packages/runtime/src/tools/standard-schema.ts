import { ToolArgumentError, ToolDefinitionError, type ValidationIssue } from "../errors.js";
import { argumentFeedback } from "../validation/feedback.js";
import type { JsonSchema } from "./spec.js";

/** The result of a Standard Schema's `validate`, as the Standard Schema interface defines it. */
export type StandardResult<Output> =
  | { readonly value: Output; readonly issues?: undefined }
  | {
      readonly issues: ReadonlyArray<{
        readonly message: string;
        readonly path?: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }>;
      }>;
    };

/**
 * The part of the Standard Schema interface (zod 4, Valibot, ArkType, ...) toolwright
 * uses: `validate`, and `jsonSchema.input()` from the Standard JSON Schema extension.
 */
export interface StandardSchema<Output = unknown> {
  readonly "~standard": {
    readonly version: 1;
    readonly vendor: string;
    validate(value: unknown): StandardResult<Output> | Promise<StandardResult<Output>>;
    readonly jsonSchema?: { input(options: { readonly target: string }): Record<string, unknown> };
    readonly types?: { readonly input: unknown; readonly output: Output };
  };
}

/** True for any object carrying the `~standard` property. */
export function isStandardSchema(value: unknown): value is StandardSchema {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { "~standard"?: { validate?: unknown } })["~standard"]?.validate === "function"
  );
}

/** The JSON Schema of a Standard Schema's input, in 2020-12 keywords; the library's own `$schema` is dropped. */
export function jsonSchemaOf(schema: StandardSchema, toolName: string): JsonSchema {
  const standard = schema["~standard"];
  if (!standard.jsonSchema) {
    throw new ToolDefinitionError(
      `tool "${toolName}": its ${standard.vendor} schema cannot produce a JSON Schema (no "~standard.jsonSchema"). ` +
        "Upgrade the library (zod 4.2+), or pass the JSON Schema itself as parameters, e.g. z.toJSONSchema(schema).",
      toolName,
    );
  }
  const { $schema: _dialect, ...rest } = standard.jsonSchema.input({ target: "draft-2020-12" });
  return rest;
}

function pathOf(path: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> | undefined): string {
  return (path ?? []).map((p) => `/${String(typeof p === "object" ? p.key : p)}`).join("");
}

/**
 * Runs the schema's own validation (which applies its defaults and transforms) on
 * arguments Ajv already accepted; a refinement JSON Schema cannot express ends here.
 */
export async function standardValidate<Output>(
  schema: StandardSchema<Output>,
  parameters: JsonSchema,
  toolName: string,
  args: unknown,
): Promise<Output> {
  const result = await schema["~standard"].validate(args);
  if (!result.issues) return result.value;
  const issues: ValidationIssue[] = result.issues.map((issue) => {
    const path = pathOf(issue.path);
    return { code: "invalid_value", path, message: `${path ? `${path}: ` : ""}${issue.message}` };
  });
  throw new ToolArgumentError(argumentFeedback(toolName, issues, parameters), toolName, issues);
}
