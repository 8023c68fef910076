import { RUN_STATE_FORMAT, RUN_STATE_VERSION, type RunStateJson } from "../runner/run-state.js";
import type { Interruption, RunStatus } from "../runner/types.js";
import { RUN_RECORD_FORMAT, RUN_RECORD_VERSION, type TracedRun } from "./run-record.js";
import { SavedRunError } from "./saved-run-error.js";

const SAVE_HINT = "save it again with JSON.stringify(result) (or state.toString() for a paused run)";
const STATUSES: readonly RunStatus[] = ["completed", "interrupted", "stopped"];

type Json = Record<string, unknown>;

/**
 * Reads a saved run for a trace or the viewer: a run result as `JSON.stringify(result)`
 * wrote it, or a paused run's state as `state.toString()` wrote it. Anything else (a
 * truncated file, an older or newer format, a file that is not a run) is a
 * {@link SavedRunError} naming `file` and what is wrong.
 *
 * @example
 * ```ts
 * const run = readSavedRun(await readFile("run.json", "utf8"), "run.json");
 * console.log(formatTrace(run));
 * ```
 */
export function readSavedRun(text: string, file: string): TracedRun {
  const fail = (problem: string): never => {
    throw new SavedRunError(file, problem);
  };
  if (text.trim() === "") fail(`the file is empty; ${SAVE_HINT}.`);
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    const message = (error as Error).message;
    if (cutShort(text, message)) {
      fail(`the JSON ends early (after ${text.length} characters): the file was cut short; ${SAVE_HINT}.`);
    }
    fail(`not valid JSON (${message}); ${SAVE_HINT}.`);
  }
  if (!isObject(data)) return fail(`expected a JSON object (a saved run), got ${describe(data)}.`);
  if (data.format === RUN_STATE_FORMAT) return fromState(data, fail);
  if (data.format === RUN_RECORD_FORMAT) {
    checkVersion(data.version, RUN_RECORD_VERSION, "saved run", fail);
    return checkedRun(data, fail);
  }
  if (data.format === undefined && "runId" in data && "steps" in data) {
    fail(
      `a run saved in an older format (it has no "format" field; this toolwright reads "format": "${RUN_RECORD_FORMAT}", ` +
        `version ${RUN_RECORD_VERSION}); ${SAVE_HINT} from this toolwright version.`,
    );
  }
  return fail(
    `not a toolwright run: expected "format": "${RUN_RECORD_FORMAT}" (a run result) or "${RUN_STATE_FORMAT}" (a run state), ` +
      `got ${data.format === undefined ? "no format field" : JSON.stringify(data.format)}.`,
  );
}

/** Whether a parse error comes from text that stops before its JSON does, rather than from a wrong character. */
function cutShort(text: string, message: string): boolean {
  const body = text.trimEnd();
  const at = /position (\d+)/.exec(message);
  return (
    /end of (JSON )?input|Unterminated/i.test(message) ||
    (at !== null && Number(at[1]) >= body.length - 1) ||
    (body.startsWith("{") && !body.endsWith("}"))
  );
}

function checkVersion(version: unknown, current: number, what: string, fail: (problem: string) => never): void {
  if (typeof version !== "number" || !Number.isInteger(version)) {
    fail(`the ${what} has no whole-number "version" field, so its format cannot be told.`);
  }
  if ((version as number) > current) {
    fail(`the ${what} is version ${version}, newer than this toolwright reads (${current}): upgrade toolwright.`);
  }
  if ((version as number) < 1) {
    fail(`the ${what} is version ${version}, an older format this toolwright no longer reads (it reads ${current}).`);
  }
}

/** A paused run's state, seen as a run that is waiting for approvals. */
function fromState(data: Json, fail: (problem: string) => never): TracedRun {
  checkVersion(data.version, RUN_STATE_VERSION, "run state", fail);
  const state = data as unknown as RunStateJson;
  if (!isObject(state.agent) || !isObject(state.snapshot)) fail('the run state has no "agent" or "snapshot" object.');
  const { snapshot } = state;
  const interruptions: Interruption[] = (snapshot.pending ?? []).flatMap((p) =>
    p.approval?.status === "pending" ? [{ callId: p.call.id, toolName: p.call.name, args: p.approval.args }] : [],
  );
  return checkedRun(
    {
      agentName: state.agent.name,
      runId: snapshot.runId,
      status: "interrupted",
      messages: snapshot.messages,
      usage: snapshot.usage,
      steps: snapshot.steps,
      interruptions,
    },
    fail,
    "snapshot.",
  );
}

/** Checks the fields a trace reads, naming the first one that is missing or of the wrong kind. */
function checkedRun(data: Json, fail: (problem: string) => never, prefix = ""): TracedRun {
  const need = (ok: boolean, path: string, expected: string, value: unknown): void => {
    if (!ok) fail(`${prefix}${path} should be ${expected}, got ${describe(value)}; the file is damaged or not a run.`);
  };
  need(typeof data.agentName === "string", prefix ? "agent.name" : "agentName", "a string", data.agentName);
  need(typeof data.runId === "string", "runId", "a string", data.runId);
  need(STATUSES.includes(data.status as RunStatus), "status", `one of ${STATUSES.join(", ")}`, data.status);
  need(Array.isArray(data.messages), "messages", "an array", data.messages);
  need(isObject(data.usage), "usage", "an object", data.usage);
  need(Array.isArray(data.steps), "steps", "an array", data.steps);
  need(Array.isArray(data.interruptions), "interruptions", "an array", data.interruptions);
  (data.steps as unknown[]).forEach((step, i) => {
    need(isObject(step), `steps[${i}]`, "an object", step);
    const s = step as Json;
    need(typeof s.step === "number", `steps[${i}].step`, "a number", s.step);
    need(isObject(s.usage), `steps[${i}].usage`, "an object", s.usage);
    need(Array.isArray(s.calls), `steps[${i}].calls`, "an array", s.calls);
    (s.calls as unknown[]).forEach((call, j) => {
      const c = (isObject(call) ? call : {}) as Json;
      for (const key of ["callId", "toolName", "outcome", "content"]) {
        need(typeof c[key] === "string", `steps[${i}].calls[${j}].${key}`, "a string", c[key]);
      }
    });
  });
  return data as unknown as TracedRun;
}

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (value === undefined) return "nothing (the field is missing)";
  if (Array.isArray(value)) return "an array";
  if (value === null) return "null";
  return typeof value === "object" ? "an object" : `${typeof value} ${JSON.stringify(value).slice(0, 40)}`;
}
