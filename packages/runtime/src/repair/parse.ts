import { createRequire } from "node:module";
import type { ValidationIssue } from "../errors.js";
import { renderValue } from "../validation/render.js";
import type { Repair } from "./repair.js";

// jsonrepair is required on the first text that is not strict JSON, not imported: well-formed
// calls (nearly all of them) never load it, which keeps it out of the runtime's start-up
// and core size, as Ajv is (docs/adr/0008-generated-validators.md).
const load = createRequire(import.meta.url);
let repairModule: typeof import("jsonrepair") | undefined;
function jsonRepair(): typeof import("jsonrepair") {
  repairModule ??= load("jsonrepair") as typeof import("jsonrepair");
  return repairModule;
}

/** What the model sent, turned into a value: `empty` for `""`, `null` or nothing. */
export type Parsed =
  | { readonly ok: true; readonly empty: boolean; readonly value: unknown; readonly repairs: readonly Repair[] }
  | { readonly ok: false; readonly issue: ValidationIssue };

const FENCE = /^```[\w-]*[ \t]*\r?\n?([\s\S]*?)\r?\n?```$/;

function tryParse(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) };
  } catch {
    return undefined;
  }
}

function isObject(value: unknown): boolean {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function notJson(raw: string, reason: string | undefined): Parsed {
  const why = reason ? ` (${reason})` : "";
  return {
    ok: false,
    issue: {
      code: "invalid_json",
      path: "",
      message: `the arguments are not valid JSON and could not be repaired${why}: got ${renderValue(raw)}; send one JSON object`,
    },
  };
}

/** Strict JSON first; then a stripped code fence; then jsonrepair (trailing commas, quotes, cut-off text). */
function parseText(raw: string): Parsed {
  const strict = tryParse(raw);
  if (strict) return { ok: true, empty: false, value: strict.value, repairs: [] };
  const fenced = FENCE.exec(raw.trim());
  const inner = fenced?.[1] ?? raw;
  if (fenced) {
    const unfenced = tryParse(inner);
    if (unfenced) {
      return {
        ok: true,
        empty: false,
        value: unfenced.value,
        repairs: [{ kind: "json_repaired", path: "", detail: "removed a code fence" }],
      };
    }
  }
  const { JSONRepairError, jsonrepair } = jsonRepair();
  let repaired: string;
  try {
    repaired = jsonrepair(inner);
  } catch (error) {
    return notJson(raw, error instanceof JSONRepairError ? error.message : undefined);
  }
  const value = tryParse(repaired)?.value;
  // jsonrepair turns any text into some JSON (`hello` becomes "hello"); only an object is a repair.
  if (!isObject(value)) return notJson(raw, undefined);
  const detail = fenced ? "removed a code fence and repaired broken JSON" : "repaired broken JSON";
  return { ok: true, empty: false, value, repairs: [{ kind: "json_repaired", path: "", detail }] };
}

/**
 * Reads the arguments as they arrived: a JSON string (most APIs), an object (Anthropic,
 * Gemini), or `""`/`null` for "no arguments". A whole-arguments JSON string that was
 * encoded twice is decoded once more.
 */
export function parseArguments(raw: unknown): Parsed {
  if (raw === undefined || raw === null || (typeof raw === "string" && raw.trim() === "")) {
    return { ok: true, empty: true, value: {}, repairs: [] };
  }
  const parsed =
    typeof raw === "string" ? parseText(raw) : ({ ok: true, empty: false, value: raw, repairs: [] } as const);
  if (!parsed.ok) return parsed;
  const { value } = parsed;
  if (typeof value === "string") {
    const inner = tryParse(value);
    if (inner && isObject(inner.value)) {
      return {
        ok: true,
        empty: false,
        value: inner.value,
        repairs: [
          ...parsed.repairs,
          { kind: "json_string_decoded", path: "", detail: "the arguments were a JSON string holding an object" },
        ],
      };
    }
  }
  if (!isObject(value)) {
    return {
      ok: false,
      issue: {
        code: "invalid_type",
        path: "",
        message: `expected the arguments as a JSON object, got ${renderValue(value)}`,
      },
    };
  }
  return parsed;
}
