import type { Message } from "../model/messages.js";
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
import { PAGE_STYLE } from "./page-style.js";
import type { TracedRun } from "./run-record.js";

/** Opens or closes every call at once; the only script on the page. */
const PAGE_SCRIPT = `
for (const button of document.querySelectorAll("button[data-open]")) {
  button.addEventListener("click", () => {
    const open = button.dataset.open === "true";
    for (const d of document.querySelectorAll("details.call")) d.open = open;
  });
}`;

/**
 * One self-contained HTML page showing a run: a timeline of turns and calls with their
 * durations, token and cost bars per turn, every call with expandable arguments and
 * result, and the messages. No external resource is loaded (its content policy forbids it).
 *
 * @example
 * ```ts
 * await writeFile("run.html", renderRunPage(result));
 * ```
 */
export function renderRunPage(run: TracedRun): string {
  const title = `${run.agentName} · ${run.runId}`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title><style>${PAGE_STYLE}</style></head>
<body>
${summary(run)}
<h2>Timeline</h2>
${timeline(run)}
<h2>Tokens and cost</h2>
<p class="facts legend"><span class="key in"></span> input tokens <span class="key out"></span> output tokens <span class="key cost"></span> cost</p>
${usage(run)}
<h2>Calls</h2>
<p><button data-open="true">Expand all</button><button data-open="false">Collapse all</button></p>
${run.steps.map((step) => calls(run, step)).join("\n")}
<h2>Messages</h2>
${run.messages.map(message).join("\n")}
<script>${PAGE_SCRIPT}</script>
</body></html>
`;
}

function summary(run: TracedRun): string {
  const calls = run.steps.reduce((n, s) => n + s.calls.length, 0);
  const span = timeSpan(run);
  const status = run.status === "completed" ? "ok" : run.status === "interrupted" ? "warn" : "bad";
  const facts = [
    `<b class="${status}">${run.status}</b>`,
    `${run.steps.length} turns`,
    `${calls} calls`,
    ...(span ? [formatDuration(span.end - span.start)] : []),
    `${formatCount(run.usage.inputTokens)} in / ${formatCount(run.usage.outputTokens)} out tokens`,
    formatCost(run.usage.costUsd),
  ];
  const waiting = run.interruptions.map((i) => `<li>${esc(i.toolName)} (${esc(i.callId)})</li>`).join("");
  return `<h1>${esc(run.agentName)} <small class="facts">${esc(run.runId)}</small></h1>
<p class="facts">${facts.join(" · ")}</p>
${run.output === undefined ? "" : `<h3>Answer</h3><pre class="answer">${esc(run.output)}</pre>`}
${waiting ? `<h3 class="warn">Waiting for approval</h3><ul>${waiting}</ul>` : ""}`;
}

function timeline(run: TracedRun): string {
  const span = timeSpan(run);
  if (!span) return '<p class="facts">This run was recorded without timings.</p>';
  const total = Math.max(span.end - span.start, 1);
  const bar = (startedAt: number | undefined, durationMs: number | undefined, cls: string): string => {
    if (startedAt === undefined) return "";
    const left = ((startedAt - span.start) / total) * 100;
    const width = ((durationMs ?? 0) / total) * 100;
    return `<div class="bar ${cls}" style="left:${left.toFixed(2)}%;width:${width.toFixed(2)}%"></div>`;
  };
  const rows = run.steps.flatMap((step) => [
    row(
      "turn",
      `turn ${step.step}${step.model ? ` · ${step.model}` : ""}`,
      bar(step.startedAt, step.durationMs, "turn"),
      step.durationMs === undefined ? undefined : formatDuration(step.durationMs),
    ),
    ...step.calls.map((call) =>
      row(
        "call",
        call.toolName,
        bar(call.startedAt, call.durationMs, `call${call.outcome === "ok" ? "" : " failed"}`),
        callTime(call),
      ),
    ),
  ]);
  return `<div class="timeline">${rows.join("\n")}</div>`;
}

function row(kind: string, label: string, bar: string, time = ""): string {
  return `<div class="row ${kind}"><span class="label" title="${esc(label)}">${esc(label)}</span><div class="track">${bar}</div><span class="num">${time}</span></div>`;
}

function usage(run: TracedRun): string {
  const maxTokens = Math.max(1, ...run.steps.flatMap((s) => [s.usage.inputTokens, s.usage.outputTokens]));
  const maxCost = Math.max(...run.steps.map((s) => s.costUsd ?? 0));
  const width = (value: number, max: number) => `width:${((value / max) * 100).toFixed(2)}%`;
  return run.steps
    .map((step) => {
      const cost = step.costUsd ?? 0;
      const costBar =
        maxCost > 0 ? `<div class="track"><div class="bar cost" style="${width(cost, maxCost)}"></div></div>` : "";
      return `<div class="row usage"><span class="label">turn ${step.step}</span><div>
<div class="track" title="input tokens"><div class="bar in" style="${width(step.usage.inputTokens, maxTokens)}"></div></div>
<div class="track" title="output tokens"><div class="bar out" style="${width(step.usage.outputTokens, maxTokens)}"></div></div>${costBar}
</div><span class="num">${formatCount(step.usage.inputTokens)} in<br>${formatCount(step.usage.outputTokens)} out<br>${formatCost(cost)}</span></div>`;
    })
    .join("\n");
}

function calls(run: TracedRun, step: StepRecord): string {
  if (step.calls.length === 0) return "";
  const args = argumentsByCall(run.messages);
  return `<h3>Turn ${step.step}</h3>\n${step.calls.map((call) => callDetails(call, argumentsText(args.get(call.callId)))).join("\n")}`;
}

function callDetails(call: CallRecord, args: string): string {
  const cls = call.outcome === "ok" ? "ok" : call.outcome === "rejected" ? "warn" : "bad";
  const facts = [
    ...(callTime(call) === undefined ? [] : [callTime(call)]),
    ...(call.attempts > 1 ? [`${call.attempts} attempts`] : []),
    ...(call.approval ? [call.approval] : []),
    ...(call.repairs?.length ? [`${call.repairs.length} repaired`] : []),
  ];
  const repairs = (call.repairs ?? [])
    .map((r) => `<li>${esc(r.kind)}${r.path ? ` at ${esc(r.path)}` : ""}${r.detail ? `: ${esc(r.detail)}` : ""}</li>`)
    .join("");
  const logs = (call.logs ?? []).map((l) => `<li>${esc(l.level)}: ${esc(l.message)}</li>`).join("");
  return `<details class="call" data-call-id="${esc(call.callId)}"><summary><b>${esc(call.toolName)}</b> <code>${esc(oneLine(args, 80))}</code> → <span class="${cls}">${esc(call.outcome)}</span> <span class="facts">${facts.join(" · ")}</span></summary>
<h3>Arguments</h3><pre class="args">${esc(pretty(args))}</pre>
<h3>Result</h3><pre class="result">${esc(call.content)}</pre>
${call.detail ? `<h3>Detail</h3><pre>${esc(call.detail)}</pre>` : ""}${repairs ? `<h3>Repairs</h3><ul>${repairs}</ul>` : ""}${logs ? `<h3>Logs</h3><ul>${logs}</ul>` : ""}
</details>`;
}

function message(m: Message): string {
  const error = m.role === "tool" && m.isError ? " error" : "";
  const who = m.role === "tool" ? `tool ${m.toolName} (${m.outcome})` : m.role;
  const calls =
    m.role === "assistant" && m.toolCalls.length
      ? `<p class="facts">calls ${m.toolCalls.map((c) => esc(c.name)).join(", ")}</p>`
      : "";
  return `<div class="msg ${m.role}${error}"><div class="role">${esc(who)}</div>${m.content ? `<pre>${esc(m.content)}</pre>` : ""}${calls}</div>`;
}

/** Arguments indented for reading, when they are JSON. */
function pretty(args: string): string {
  try {
    return JSON.stringify(JSON.parse(args), null, 2);
  } catch {
    return args;
  }
}

function esc(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
