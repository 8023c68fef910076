import { Ajv2020 } from "ajv/dist/2020.js";

const ajv = new Ajv2020({ strict: false, validateFormats: false, logger: false });

/** MCP `inputSchema`: a JSON Schema (2020-12) document a client can compile, whose root is `type: "object"`. */
export function checkMcp(schema: Record<string, unknown>): string[] {
  const problems = schema.type === "object" ? [] : ['inputSchema.type must be "object"'];
  try {
    ajv.compile(schema);
  } catch (e) {
    problems.push(`not a compilable JSON Schema: ${(e as Error).message}`);
  }
  return problems;
}
