import type ts from "typescript";
import { TS } from "../typescript-host.js";

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

function holeOf(type: ts.Type): string {
  if (type.flags & TS.TypeFlags.Number) return NUMBER_HOLE;
  if (type.flags & TS.TypeFlags.BigInt) return BIGINT_HOLE;
  if (type.flags & TS.TypeFlags.Boolean) return BOOLEAN_HOLE;
  return STRING_HOLE;
}

/** The anchored regular expression that matches exactly the strings of a template literal type. */
export function templatePattern(type: ts.TemplateLiteralType): string {
  const body = type.texts.map((text, i) => escapeRegExp(text) + (type.types[i] ? holeOf(type.types[i]) : "")).join("");
  return `^${body}$`;
}
