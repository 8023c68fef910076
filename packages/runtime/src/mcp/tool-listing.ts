import type { Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";
import { mcpAnnotations, mcpDialect } from "../dialects/mcp.js";
import type { JsonSchema } from "../tools/spec.js";
import type { Tool } from "../tools/tool-types.js";

/**
 * The key a non-object return value is wrapped in: MCP wants `outputSchema` and
 * `structuredContent` to be objects, so a tool returning `number` is announced as
 * `{ result: number }` and answers `{ "result": 42 }`.
 */
export const RESULT_KEY = "result";

/** How a tool's return value travels as `structuredContent`. */
export interface OutputShape {
  /** The `outputSchema` announced in `tools/list`. */
  readonly schema: JsonSchema;
  /** True when the value is wrapped as `{ result: value }`. */
  readonly wrapped: boolean;
}

// Worked out once per tool: every tools/list and every successful call needs it.
const shapes = new WeakMap<Tool, OutputShape | null>();

/**
 * Announces a tool's return type, or nothing when the type cannot be checked. An object
 * schema goes out as it is; anything else (a string, an array, a union, a nullable object)
 * is wrapped, with `$defs` and `$schema` kept at the root so its `$ref`s still resolve and
 * its draft still applies.
 */
export function outputShapeOf(tool: Tool): OutputShape | undefined {
  let shape = shapes.get(tool);
  if (shape === undefined) {
    // A tool returning images or sounds answers with MCP image and audio content, not structuredContent.
    shape = tool.outputSchema && !describesMedia(tool.outputSchema) ? shapeOf(tool.outputSchema) : null;
    shapes.set(tool, shape);
  }
  return shape ?? undefined;
}

/** True for the schema of an image or audio part (`{ type: "image", data, mimeType }`), or of a list holding one. */
function describesMedia(schema: JsonSchema): boolean {
  const isPart = (node: unknown): boolean => {
    const properties = (node as JsonSchema | undefined)?.properties as Record<string, JsonSchema> | undefined;
    const kind = properties?.type;
    const kinds = kind?.const !== undefined ? [kind.const] : Array.isArray(kind?.enum) ? kind.enum : [];
    return (
      kinds.length > 0 &&
      kinds.every((k) => k === "image" || k === "audio") &&
      properties?.data !== undefined &&
      properties.mimeType !== undefined
    );
  };
  const items = schema.items as JsonSchema | undefined;
  const options = (node: JsonSchema | undefined) => (node?.anyOf ?? node?.oneOf ?? []) as JsonSchema[];
  return isPart(schema) || isPart(items) || options(items).some(isPart) || options(schema).some(isPart);
}

function shapeOf(schema: JsonSchema): OutputShape {
  if (schema.type === "object") return { schema: mcpDialect.toDialect(schema).schema, wrapped: false };
  const { $defs, $schema, ...inner } = schema;
  const wrapper: JsonSchema = {
    ...($schema === undefined ? {} : { $schema }),
    type: "object",
    properties: { [RESULT_KEY]: inner },
    required: [RESULT_KEY],
    additionalProperties: false,
    ...($defs === undefined ? {} : { $defs }),
  };
  return { schema: mcpDialect.toDialect(wrapper).schema, wrapped: true };
}

/** One entry of `tools/list`: the input schema in the MCP dialect, the output shape and the annotations. */
export function describeTool(tool: Tool): McpTool {
  const output = outputShapeOf(tool);
  const annotations = mcpAnnotations(tool.flags);
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: mcpDialect.toDialect(tool.parameters).schema as McpTool["inputSchema"],
    ...(output ? { outputSchema: output.schema as McpTool["outputSchema"] } : {}),
    ...(annotations ? { annotations } : {}),
  };
}
