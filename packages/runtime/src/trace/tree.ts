import type { CallRecord, StepRecord } from "../runner/types.js";
import {
  argumentsByCall,
  argumentsText,
  callTime,
  formatCost,
  formatCount,
  formatDuration,
  oneLine,
  timeSpan,
} from "./measure.js";
import type { TracedRun } from "./run-record.js";

/** Options of {@link formatTrace}. */
export interface TraceOptions {
  /** ANSI colours (default false); `toolwright trace` turns them on for a terminal only. */
  readonly color?: boolean;
  /** Longest argument, result or text shown on one line before it is cut (default 120). */
  readonly width?: number;
}

type Paint = (code: number, text: string) => string;

const GREEN = 32;
const RED = 31;
const YELLOW = 33;
const DIM = 2;
const BOLD = 1;

/**
 * A run as a readable tree: one branch per model turn (model, duration, tokens, cost, why
 * it stopped), under it each call with its arguments, outcome, duration, engine retries,
 * repairs and approval, then the final answer or the calls still waiting for a person.
 *
 * @example
 * ```ts
 * const result = await agent.run("Weather in Paris?");
 * console.log(formatTrace(result)); // or result.trace()
 * ```
 */
export function formatTrace(run: TracedRun, options: TraceOptions = {}): string {
  const paint: Paint = options.color ? (code, text) => `\u001b[${code}m${text}\u001b[0m` : (_code, text) => text;
  const width = options.width ?? 120;
  const args = argumentsByCall(run.messages);
  const lines = [header(run, paint)];
  const tail = ending(run, paint, width);
  run.steps.forEach((step, index) => {
    const last = index === run.steps.length - 1 && tail.length === 0;
    lines.push(`${last ? "└─" : "├─"} ${stepLine(step, paint)}`);
    const inner = last ? "   " : "│  ";
    if (step.text) lines.push(`${inner}${paint(DIM, "│")} ${oneLine(step.text, width)}`);
    step.calls.forEach((call, n) => {
      const lastCall = n === step.calls.length - 1;
      lines.push(
        `${inner}${lastCall ? "└─" : "├─"} ${callLine(call, argumentsText(args.get(call.callId)), paint, width)}`,
      );
      const under = `${inner}${lastCall ? "   " : "│  "}   `;
      for (const detail of callDetails(call, paint, width)) lines.push(`${under}${detail}`);
    });
  });
  tail.forEach((line, index) => {
    lines.push(`${index === 0 ? "└─" : "  "} ${line}`);
  });
  return `${lines.join("\n")}\n`;
}

function header(run: TracedRun, paint: Paint): string {
  const calls = run.steps.reduce((n, s) => n + s.calls.length, 0);
  const span = timeSpan(run);
  const facts = [
    `agent "${run.agentName}"`,
    statusText(run.status, paint),
    `${run.steps.length} turn${run.steps.length === 1 ? "" : "s"}`,
    `${calls} call${calls === 1 ? "" : "s"}`,
    ...(span ? [formatDuration(span.end - span.start)] : []),
    `${formatCount(run.usage.inputTokens)} in / ${formatCount(run.usage.outputTokens)} out tokens`,
    formatCost(run.usage.costUsd),
  ];
  return `${paint(BOLD, `run ${run.runId}`)} · ${facts.join(" · ")}`;
}

function statusText(status: TracedRun["status"], paint: Paint): string {
  return paint(status === "completed" ? GREEN : status === "interrupted" ? YELLOW : RED, status);
}

function stepLine(step: StepRecord, paint: Paint): string {
  const facts = [
    ...(step.model ? [step.model] : []),
    ...(step.durationMs === undefined ? [] : [formatDuration(step.durationMs)]),
    `${formatCount(step.usage.inputTokens)} in / ${formatCount(step.usage.outputTokens)} out`,
    ...(step.costUsd === undefined ? [] : [formatCost(step.costUsd)]),
    ...(step.finishReason ? [step.finishReason] : []),
  ];
  return `${paint(BOLD, `turn ${step.step}`)} ${paint(DIM, facts.join(" · "))}`;
}

function callLine(call: CallRecord, args: string, paint: Paint, width: number): string {
  const outcome = paint(call.outcome === "ok" ? GREEN : call.outcome === "rejected" ? YELLOW : RED, call.outcome);
  const facts = [
    ...(callTime(call) === undefined ? [] : [callTime(call)]),
    ...(call.attempts > 1 ? [`${call.attempts} attempts`] : []),
    ...(call.approval ? [call.approval] : []),
  ];
  const line = `${paint(BOLD, call.toolName)} ${oneLine(args, width)} → ${outcome}`;
  return facts.length ? `${line} ${paint(DIM, facts.join(" · "))}` : line;
}

function callDetails(call: CallRecord, paint: Paint, width: number): string[] {
  const details = [`${paint(DIM, "=")} ${oneLine(call.content, width) || paint(DIM, "(empty)")}`];
  if (call.detail) details.push(`${paint(DIM, "detail:")} ${oneLine(call.detail, width)}`);
  for (const repair of call.repairs ?? []) {
    const where = repair.path ? ` at ${repair.path}` : "";
    details.push(
      `${paint(YELLOW, "repaired")} ${repair.kind}${where}${repair.detail ? `: ${oneLine(repair.detail, width)}` : ""}`,
    );
  }
  for (const log of call.logs ?? []) details.push(`${paint(DIM, `log ${log.level}:`)} ${oneLine(log.message, width)}`);
  return details;
}

/** The last branch: the answer, or the calls waiting for a person. */
function ending(run: TracedRun, paint: Paint, width: number): string[] {
  if (run.interruptions.length > 0) {
    return run.interruptions.map(
      (i) =>
        `${paint(YELLOW, "waiting for approval:")} ${i.toolName} ${oneLine(JSON.stringify(i.args), width)} (${i.callId})`,
    );
  }
  if (run.output !== undefined) return [`${paint(GREEN, "answer:")} ${oneLine(run.output, width)}`];
  return [];
}
