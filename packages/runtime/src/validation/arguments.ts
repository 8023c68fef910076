import { ToolArgumentError, ToolDefinitionError, type ValidationIssue } from "../errors.js";
import {
  ArgumentReadError,
  cloneArguments,
  deepFreeze,
  MAX_DEPTH,
  MAX_FULL_CHECK_VALUES,
  type ValueCount,
} from "../repair/clone.js";
import { coerce } from "../repair/coerce.js";
import { type Parsed, parseArguments } from "../repair/parse.js";
import type { Repair } from "../repair/repair.js";
import type { IssueCollector, JsonSchema } from "../tools/spec.js";
import type { Tool, ToolArgs } from "../tools/tool-types.js";
import { checkerFor, type SchemaCheck } from "./compile.js";
import { hasDates, reviveDates } from "./dates.js";
import { argumentFeedback, type Coverage } from "./feedback.js";
import { type GeneratedCheck, generatedCheck } from "./generated.js";
import { collectErrors } from "./generated-helpers.js";
import { type IssueContext, issuesFromAjv } from "./issues.js";
import { isParsedArguments } from "./parsed-arguments.js";
import { at, quote, renderValue, shownPath, valueAt } from "./render.js";

/** The result of checking a model's arguments: frozen arguments and the repairs made, or the error to send back. */
export type ArgumentCheck =
  | { readonly ok: true; readonly args: ToolArgs; readonly repairs: readonly Repair[] }
  | { readonly ok: false; readonly error: ToolArgumentError };

/** The lazily compiled validator of a tool's schema; a schema Ajv cannot compile is the tool author's mistake. */
export function checkerOf(
  toolName: string,
  schema: JsonSchema,
  what: "parameters" | "outputSchema",
  allErrors = true,
): SchemaCheck {
  try {
    return checkerFor(schema, allErrors);
  } catch (error) {
    throw new ToolDefinitionError(
      `tool "${toolName}" has a ${what} JSON Schema that cannot be compiled: ${error instanceof Error ? error.message : String(error)}. ` +
        "Fix the schema (local $ref targets must exist under $defs).",
      toolName,
    );
  }
}

function fail(tool: Tool, issues: readonly ValidationIssue[], coverage: Coverage = "all"): ArgumentCheck {
  const message = argumentFeedback(tool.name, issues, tool.parameters, coverage);
  // Returned as data, not thrown: a stack trace here would only name this module's frames,
  // and capturing one was a seventh of a rejected call. Where the error is thrown
  // (`invoke`, `agent.validateArgs`), the stack of the throwing call is captured then.
  // A limit that is no number makes V8 skip the stack entirely (`stack` is undefined until
  // then); a limit of 0 still cost 0.5 µs per error, a tenth of a rejected call.
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = undefined as unknown as number;
  try {
    return { ok: false, error: new ToolArgumentError(message, tool.name, issues) };
  } finally {
    Error.stackTraceLimit = limit;
  }
}

/**
 * `error` (made without a stack, see `fail`) with the stack of the call that throws it,
 * from the caller of `site` on: what a stack trace of a thrown error is for.
 */
export function thrownFrom(error: ToolArgumentError, site: (...args: never[]) => unknown): ToolArgumentError {
  if (typeof Error.captureStackTrace === "function") Error.captureStackTrace(error, site);
  return error;
}

/** What a thrown getter or proxy trap said, in a few words, without trusting it to behave. */
function thrown(error: unknown): string {
  try {
    return quote(error instanceof Error ? `${error.name}: ${error.message}` : String(error), "a message");
  } catch {
    return "a value that cannot be shown";
  }
}

/** The issue of a value {@link cloneArguments} refused. */
export function readIssue(error: ArgumentReadError): ValidationIssue {
  const { path } = error;
  switch (error.problem) {
    case "too_deep":
      return {
        code: "too_deep",
        path,
        message: `the arguments nest deeper than ${MAX_DEPTH} levels (at ${shownPath(path)})`,
      };
    case "not_finite":
      return {
        code: "not_finite",
        path,
        message: `${at(path)}expected a finite number, got ${String(error.found)}; send a number between -1.7976931348623157e308 and 1.7976931348623157e308`,
      };
    case "unreadable":
      return {
        code: "unreadable",
        path,
        message: `${at(path)}the arguments could not be read: reading them threw ${thrown(error.found)}; pass plain data (no throwing getters or proxies)`,
      };
  }
}

/**
 * Arguments given as a value, checked and frozen: a caller's object is copied (in the same
 * pass) before anything else looks at it, so its getters and proxies run only here and its
 * own objects are never frozen; an object the runtime parsed from a provider's JSON is its
 * own, frozen in place.
 */
function frozenArguments(raw: unknown, count: ValueCount): unknown {
  return cloneArguments(raw, !isParsedArguments(raw), count, true);
}

/**
 * The arguments as a private, checked and frozen copy: text is parsed, a caller's object is
 * copied. `count` receives the number of values they hold. Arguments {@link validFast}
 * already read are taken as they are.
 */
function readArguments(raw: unknown, count: ValueCount, read: Read | undefined): Parsed {
  if (read) {
    count.values = read.values;
    return { ok: true, empty: false, value: read.args, repairs: [] };
  }
  try {
    if (typeof raw === "string") {
      const parsed = parseArguments(raw);
      // Text was parsed here, so no one else holds the value: check and freeze it in place.
      if (parsed.ok) cloneArguments(parsed.value, false, count, true);
      return parsed;
    }
    return parseArguments(frozenArguments(raw, count));
  } catch (error) {
    if (!(error instanceof ArgumentReadError)) throw error;
    return { ok: false, issue: readIssue(error) };
  }
}

/** The repairs of arguments that needed none: one frozen list shared by every such call. */
const NO_REPAIRS: readonly Repair[] = Object.freeze([]);

/** The value count of {@link validFast}'s read. */
const FAST_COUNT: ValueCount = { values: 0 };

/**
 * Arguments {@link validFast} read (a private object, not yet frozen where a reader ran: the
 * full path freezes what it accepts) and its check rejected or its reader left to the full
 * path, with the number of values they hold.
 */
interface Read {
  readonly args: object;
  readonly values: number;
}

/**
 * Valid arguments, the short way: where the compiler wrote a reader (`check.read`), its
 * frozen copy of the value (text parsed as strict JSON first), made and checked in one
 * pass; else the private frozen copy of a caller's object (or the parsed value, checked
 * and frozen in place), accepted by the tool's generated check. A value the copy refuses
 * is reported here. Otherwise {@link checkArguments} decides, repairs and reports exactly
 * as it always has: with the object read here when the check rejected one (the
 * {@link Read}), else (no generated check, text that is not strict JSON, not an object)
 * reading the arguments itself.
 */
function validFast(tool: Tool, check: GeneratedCheck, raw: unknown): ArgumentCheck | Read | undefined {
  let value = raw;
  if (typeof raw === "string") {
    try {
      value = JSON.parse(raw);
    } catch {
      return undefined; // not strict JSON: the full path repairs it
    }
  }
  if (check.read !== undefined) {
    try {
      const copy = check.read(value);
      if (copy !== false) return { ok: true, args: copy as ToolArgs, repairs: NO_REPAIRS };
    } catch {
      // A getter or proxy trap threw: the walk below reads the value again and reports it.
    }
  }
  let args: unknown;
  FAST_COUNT.values = 0;
  try {
    // Parsed here or by the runtime, no one else holds the value: checked (and, for the
    // check to accept, frozen) in place. A reader said no already: only the full path goes on.
    const own = value !== raw || isParsedArguments(raw);
    args = cloneArguments(value, !own, FAST_COUNT, check.read === undefined);
  } catch (error) {
    // A refused value (too deep, not finite, a getter that throws) is reported as the full path would.
    if (error instanceof ArgumentReadError) return fail(tool, [readIssue(error)]);
    throw error;
  }
  // Where a reader said no, the full path's collectors take this copy on (it is not checked
  // again): they find its errors, or none for plain data the reader only left to the walk.
  if (check.read === undefined && check(args)) return { ok: true, args: args as ToolArgs, repairs: NO_REPAIRS };
  // An object is what the full path would read too. Anything else (an array, a JSON string
  // holding an object, nothing) it reads itself, to repair it or name the mistake.
  return typeof args === "object" && args !== null && !Array.isArray(args)
    ? { args, values: FAST_COUNT.values }
    : undefined;
}

/**
 * Checks what the model sent against the tool's schema before any code runs. Known model
 * mistakes are repaired when the schema makes the fix unambiguous, and each repair is
 * recorded; when even the repaired arguments are wrong, the feedback gives their real
 * violations, showing each repaired value as the model sent it. The returned arguments are a deep-frozen copy. Arguments of more
 * than {@link MAX_FULL_CHECK_VALUES} values are checked up to their first problem only,
 * and not repaired, so no call costs more than a pass over what was sent.
 *
 * @example
 * ```ts
 * const check = validateArguments(weather, '{"city": "Paris", "days": "3",}');
 * if (check.ok) check.repairs; // [{ kind: "json_repaired", ... }, { kind: "string_to_number", path: "/days" }]
 * else check.error.message;    // the one message for the model
 * ```
 */
export function validateArguments(tool: Tool, raw: unknown): ArgumentCheck {
  const generated = generatedCheck(tool, "parameters");
  const fast = generated && validFast(tool, generated, raw);
  const check = fast !== undefined && "ok" in fast ? fast : checkArguments(tool, raw, fast, generated);
  if (!check.ok || !(generated ? generated.dates : hasDates(tool.parameters))) return check;
  // Dates last: repairs and checks see the JSON text, the function gets a Date.
  const dated = reviveDates(check.args, tool.parameters);
  if (dated.issues.length > 0) return fail(tool, dated.issues);
  return dated.value === check.args ? check : { ...check, args: deepFreeze(dated.value) as ToolArgs };
}

/** A {@link SchemaCheck} from the compiler's check and collector. */
function collected(check: GeneratedCheck, collect: IssueCollector, schema: JsonSchema): SchemaCheck {
  return (value) => (check(value) ? undefined : collectErrors(collect, value, schema));
}

/** The checks and repairs of {@link validateArguments}, before dates are revived. */
function checkArguments(
  tool: Tool,
  raw: unknown,
  read: Read | undefined,
  generated: GeneratedCheck | undefined,
): ArgumentCheck {
  const schema = tool.parameters;
  const count: ValueCount = { values: 0 };
  const parsed = readArguments(raw, count, read);
  const large = count.values > MAX_FULL_CHECK_VALUES;
  // Without a generated check, a schema Ajv cannot compile is reported whatever was sent.
  const compiled = generated ? undefined : checkerOf(tool.name, schema, "parameters", !large);
  if (!parsed.ok) return fail(tool, [parsed.issue]);
  const args = parsed.value;
  const repairs: readonly Repair[] = parsed.empty
    ? [...parsed.repairs, { kind: "empty_arguments", path: "", detail: `got ${JSON.stringify(raw ?? null)}, used {}` }]
    : parsed.repairs;
  // Arguments validFast read were rejected by the generated check, or left by its reader, there already.
  if (read === undefined && generated?.(args)) return { ok: true, args: deepFreeze(args) as ToolArgs, repairs };
  // Rejected, or no generated check: the errors the generated check's collector reports
  // build the feedback and re-check repairs; Ajv's where there is none (hand-written schemas,
  // schemas outside the collectors' subset) and for arguments too large to list every problem of.
  const collect = large ? undefined : generated?.issues;
  const check: SchemaCheck =
    generated && collect
      ? collected(generated, collect, schema)
      : (compiled ?? checkerOf(tool.name, schema, "parameters", !large));
  // The generated check said no already: straight to its collector. Its reader may instead
  // have left a value that is not plain data (a class instance, a key holding undefined,
  // nesting past its depth) to the walk, whose copy can be valid: no errors, then.
  const errors = generated && collect ? collectErrors(collect, args, schema) : check(args);
  if (!errors?.length) return { ok: true, args: deepFreeze(args) as ToolArgs, repairs };
  if (large) return fail(tool, issuesFromAjv(errors, schema).issues, "first");
  const coercions: Repair[] = [];
  const coerced = coerce(args, schema, schema, "", coercions);
  const still = coercions.length > 0 ? check(coerced) : errors;
  if (!still) return { ok: true, args: deepFreeze(coerced) as ToolArgs, repairs: [...repairs, ...coercions] };
  // Repaired and still wrong ("70" read as 70, over a maximum of 50): the real violations,
  // each repaired value shown as the model sent it, so one round trip fixes them all.
  const { issues, complete } = issuesFromAjv(still, schema, coercions.length > 0 ? shownAsSent(args, coercions) : {});
  return fail(tool, issues, complete ? "all" : "capped");
}

/** Renders each value `coercions` repaired in `args` as it was sent, then as it was read. */
function shownAsSent(args: unknown, coercions: readonly Repair[]): IssueContext {
  const repaired = new Set(coercions.map((r) => r.path));
  return {
    render: (value, path) =>
      repaired.has(path) ? `${renderValue(valueAt(args, path))}, read as ${renderValue(value)}` : renderValue(value),
  };
}
