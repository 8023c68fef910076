import { type Backend, type TsType, TypeFlag } from "../backend/backend.js";

// What TypeScript accepts in a `${number}` hole: any text `+text` reads as a finite
// number, so exponents (`1e-7`, how JavaScript prints 0.0000001), a leading dot or sign,
// and hex, octal and binary literals all count.
const NUMBER_HOLE =
  "[+-]?(?:\\d+\\.?\\d*(?:[eE][+-]?\\d+)?|\\.\\d+(?:[eE][+-]?\\d+)?|0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+)";
const BIGINT_HOLE = "-?\\d+";
const BOOLEAN_HOLE = "(?:true|false)";
// `${string}` takes any text, line breaks included (`.` would stop at a newline).
const STRING_HOLE = "[\\s\\S]*";

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function holeOf(type: TsType, backend: Backend): string {
  const flags = backend.typeFlags(type);
  if (flags & TypeFlag.Number) return NUMBER_HOLE;
  if (flags & TypeFlag.BigInt) return BIGINT_HOLE;
  if (flags & TypeFlag.Boolean) return BOOLEAN_HOLE;
  return STRING_HOLE;
}

/** The anchored regular expression that matches exactly the strings of a template literal type. */
export function templatePattern(type: TsType, backend: Backend): string {
  const { texts, types } = backend.templateParts(type);
  const body = texts
    .map((text, i) => {
      const hole = types[i];
      return escapeRegExp(text) + (hole ? holeOf(hole, backend) : "");
    })
    .join("");
  return `^${body}$`;
}
