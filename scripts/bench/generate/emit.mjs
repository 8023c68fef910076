/**
 * Turns one shape (see shapes.mjs) into the text each system needs: TypeScript
 * declarations (toolwright and typia read the same ones), a zod schema, a JSON Schema.
 */
import { shapeOf, toolName } from "./shapes.mjs";

const q = (text) => JSON.stringify(text);
const upper = (name) => name[0].toUpperCase() + name.slice(1);

/** The name of the arguments interface of tool `i`, e.g. `SearchFlights7Args`. */
export function argsTypeName(i) {
  return `${upper(toolName(i))}Args`;
}

function memberLines(fields, i, interfaces) {
  return fields.map((f) => `  /** ${f.doc} */\n  ${f.name}${f.optional ? "?" : ""}: ${tsType(f.type, i, interfaces)};`);
}

/** The TypeScript type of `type`; named objects are pushed onto `interfaces` as declarations. */
function tsType(type, i, interfaces) {
  if (typeof type === "string") return type;
  if ("enum" in type) return type.enum.map(q).join(" | ");
  if ("array" in type) {
    const inner = tsType(type.array, i, interfaces);
    return inner.includes("|") ? `(${inner})[]` : `${inner}[]`;
  }
  if ("nullable" in type) return `${tsType(type.nullable, i, interfaces)} | null`;
  const name = `${type.name}${i}`;
  interfaces.push(
    `/** ${type.name} of tool ${i}. */\nexport interface ${name} {\n${memberLines(type.object, i, interfaces).join("\n")}\n}`,
  );
  return name;
}

/**
 * A tool body that does a little work with its arguments, as tools do: a dozen calls of
 * library functions and methods (`Object.entries`, `filter`, `map`, `join`, `JSON.stringify`, ...).
 */
function workingBody(names) {
  return [
    `  const fields = Object.entries({ ${names} }).filter(([, v]) => v !== undefined).map(([k, v]) => \`\${k}=\${String(v)}\`);`,
    '  const line = fields.join("&").trim().slice(0, 200);',
    "  console.log(new Date().toISOString(), line.length, Math.min(line.length, 80));",
    "  return JSON.stringify({ line, at: Date.now() });",
  ].join("\n");
}

/**
 * The declarations of tool `i`: its nested interfaces, its function with TSDoc (what a
 * toolwright user writes) and the interface of its arguments object (what a typia user writes).
 * The function returns its arguments as JSON, or, with `working`, runs {@link workingBody}.
 */
export function tsDeclarations(i, { working = false } = {}) {
  const shape = shapeOf(i);
  const interfaces = [];
  const params = shape.params.map((p) => `${p.name}${p.optional ? "?" : ""}: ${tsType(p.type, i, interfaces)}`);
  // The nested interfaces are declared once, above; this pass only names them.
  const argsMembers = memberLines(shape.params, i, []);
  const doc = [
    "/**",
    ` * ${shape.summary} (Variant ${i}.)`,
    ...shape.params.map((p) => ` * @param ${p.name} ${p.doc}`),
    " */",
  ].join("\n");
  const names = shape.params.map((p) => p.name).join(", ");
  return [
    ...interfaces,
    `${doc}\nexport function ${toolName(i)}(${params.join(", ")}): string {\n${working ? workingBody(names) : `  return JSON.stringify([${names}]);`}\n}`,
    `/** Arguments of ${toolName(i)}. */\nexport interface ${argsTypeName(i)} {\n${argsMembers.join("\n")}\n}`,
  ].join("\n\n");
}

function zodType(type) {
  if (typeof type === "string") return `z.${type}()`;
  if ("enum" in type) return `z.enum([${type.enum.map(q).join(", ")}])`;
  if ("array" in type) return `z.array(${zodType(type.array)})`;
  if ("nullable" in type) return `${zodType(type.nullable)}.nullable()`;
  return zodObject(type.object);
}

function zodObject(fields) {
  const members = fields.map(
    (f) => `${f.name}: ${zodType(f.type)}${f.optional ? ".optional()" : ""}.describe(${q(f.doc)})`,
  );
  // Closed like toolwright's schema: unknown keys are an error, not silently dropped.
  return `z.strictObject({ ${members.join(", ")} })`;
}

/** The zod 4 schema of tool `i`'s arguments, as source text (needs `z` in scope). */
export function zodSource(i) {
  return zodObject(shapeOf(i).params);
}

function jsonType(type) {
  if (typeof type === "string") return { type };
  if ("enum" in type) return { type: "string", enum: type.enum };
  if ("array" in type) return { type: "array", items: jsonType(type.array) };
  if ("nullable" in type) {
    const inner = jsonType(type.nullable);
    return typeof inner.type === "string"
      ? { ...inner, type: [inner.type, "null"] }
      : { anyOf: [inner, { type: "null" }] };
  }
  return jsonObject(type.object);
}

function jsonObject(fields) {
  return {
    type: "object",
    properties: Object.fromEntries(fields.map((f) => [f.name, { ...jsonType(f.type), description: f.doc }])),
    required: fields.filter((f) => !f.optional).map((f) => f.name),
    additionalProperties: false,
  };
}

/** The JSON Schema of tool `i`'s arguments, as a hand-writing ajv user would give it. */
export function jsonSchema(i) {
  return jsonObject(shapeOf(i).params);
}

/** The description of tool `i`, as every system shows it to the model. */
export function description(i) {
  return `${shapeOf(i).summary} (Variant ${i}.)`;
}
