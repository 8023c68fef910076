import {
  type Attributes,
  type Context,
  context,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from "@opentelemetry/api";
import { ToolExceptionError } from "../errors.js";
import type { AssistantMessage, Message, ToolCall } from "../model/messages.js";
import type { RunEnding, RunListener, RunStart } from "../runner/observer.js";
import { RunError, ToolCallFailedError } from "../runner/run-errors.js";
import type { RunResult } from "../runner/run-result.js";
import type { CallRecord, StepRecord } from "../runner/types.js";
import { argumentsByCall, argumentsText } from "../trace/measure.js";
import { GenAI, modelParts } from "./attributes.js";
import { conventionMessages } from "./content.js";
import type { SpanRegistry } from "./span-registry.js";

/**
 * Follows one run: an `invoke_agent` span from its start to its end, and when it ends a
 * `chat` span per model turn and an `execute_tool` span per call, timed from the run's
 * records. Spans are built from the records rather than around the loop's code, so the
 * loop carries no tracing.
 */
export function runSpans(
  registry: SpanRegistry,
  tracer: Tracer,
  start: RunStart,
  captureContent: boolean,
): RunListener | undefined {
  // Another openTelemetry() observer (the parent's, or the sub-agent's own) traces this run already.
  if (registry.has(start.runId)) return undefined;
  const { provider, model } = modelParts(start.modelId);
  const common: Attributes = { [GenAI.provider]: provider, [GenAI.requestModel]: model };
  const span = tracer.startSpan(
    `invoke_agent ${start.agentName}`,
    {
      kind: SpanKind.INTERNAL,
      attributes: {
        ...common,
        [GenAI.operation]: "invoke_agent",
        [GenAI.agentName]: start.agentName,
        [GenAI.conversationId]: start.runId,
      },
    },
    registry.contextFor(start.parent),
  );
  registry.addRun(start.runId, span, tracer);
  const inRun = trace.setSpan(context.active(), span);
  const seen = new Map<number, StepRecord>();
  let turn: { readonly step: number; readonly at: number } | undefined;

  return {
    event(event) {
      if (event.type === "turn-start") turn = { step: event.step, at: Date.now() };
      if (event.type === "step-finish") seen.set(event.step, event.record);
    },
    end(ending) {
      const result =
        "result" in ending ? ending.result : ending.error instanceof RunError ? ending.error.result : undefined;
      for (const step of result?.steps ?? []) seen.set(step.step, step);
      const transcript = result?.messages ?? start.messages;
      const args = argumentsByCall(transcript);
      const previous = new Set(start.previousSteps.flatMap((s) => s.calls.map((c) => c.callId)));
      const lastPrevious = start.previousSteps.at(-1)?.step ?? 0;
      for (const step of [...seen.values()].sort((a, b) => a.step - b.step)) {
        if (step.step > lastPrevious) chatSpan(tracer, inRun, common, step, transcript, start, captureContent);
        for (const call of step.calls) {
          if (!previous.has(call.callId)) toolSpan(registry, tracer, inRun, start, step, call, args, captureContent);
        }
      }
      if ("error" in ending && turn && !seen.has(turn.step)) failedTurn(tracer, inRun, common, turn.at, ending.error);
      if ("error" in ending && ending.error instanceof ToolCallFailedError) {
        failedCall(registry, tracer, inRun, start, ending.error.result.steps.at(-1), ending.error);
      }
      finishRun(span, ending, result);
      registry.endRun(start.runId);
    },
  };
}

function finishRun(span: Span, ending: RunEnding, result: RunResult | undefined): void {
  if (result) {
    span.setAttributes({
      [GenAI.inputTokens]: result.usage.inputTokens,
      [GenAI.outputTokens]: result.usage.outputTokens,
      [GenAI.costUsd]: result.usage.costUsd,
      [GenAI.runStatus]: result.status,
    });
  }
  if ("error" in ending) markError(span, ending.error);
  span.end();
}

function markError(span: Span, error: unknown): void {
  const type = error instanceof Error ? error.name : "Error";
  span.setAttribute(GenAI.errorType, type);
  span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
}

/** The attributes of an `execute_tool` span, for a recorded call or the one whose exception ended the run. */
function toolAttributes(start: RunStart, toolName: string, callId: string): Attributes {
  const description = start.tools.find((t) => t.name === toolName)?.description;
  return {
    [GenAI.operation]: "execute_tool",
    [GenAI.toolName]: toolName,
    [GenAI.toolCallId]: callId,
    [GenAI.toolType]: "function",
    ...(description === undefined ? {} : { [GenAI.toolDescription]: description }),
  };
}

function chatSpan(
  tracer: Tracer,
  parent: Context,
  common: Attributes,
  step: StepRecord,
  transcript: readonly Message[],
  start: RunStart,
  captureContent: boolean,
): void {
  const at = step.startedAt ?? Date.now();
  const attributes: Attributes = {
    ...common,
    [GenAI.operation]: "chat",
    // The model the response names, never the one asked for: they differ by a dated snapshot or an alias.
    ...(step.responseModel === undefined ? {} : { [GenAI.responseModel]: step.responseModel }),
    [GenAI.inputTokens]: step.usage.inputTokens,
    [GenAI.outputTokens]: step.usage.outputTokens,
    [GenAI.cacheReadTokens]: step.usage.cachedInputTokens,
    ...(step.finishReason ? { [GenAI.finishReasons]: [step.finishReason] } : {}),
    ...(step.costUsd === undefined ? {} : { [GenAI.costUsd]: step.costUsd }),
    ...(captureContent ? turnContent(step, transcript, start.instructions) : {}),
  };
  const span = tracer.startSpan(
    `chat ${common[GenAI.requestModel]}`,
    { kind: SpanKind.CLIENT, startTime: at, attributes },
    parent,
  );
  span.end(at + (step.durationMs ?? 0));
}

/** What the model read and wrote in this turn, when its assistant message is in the transcript. */
function turnContent(step: StepRecord, transcript: readonly Message[], instructions: string | undefined): Attributes {
  const ids = step.calls.map((c) => c.callId).join("\u0000");
  const index = transcript.findIndex(
    (m): m is AssistantMessage =>
      m.role === "assistant" &&
      (ids ? m.toolCalls.map((c) => c.id).join("\u0000") === ids : m.toolCalls.length === 0 && m.content === step.text),
  );
  return {
    ...(instructions === undefined
      ? {}
      : { [GenAI.systemInstructions]: JSON.stringify([{ type: "text", content: instructions }]) }),
    ...(index < 0
      ? {}
      : {
          [GenAI.inputMessages]: conventionMessages(transcript.slice(0, index)),
          [GenAI.outputMessages]: conventionMessages([transcript[index] as Message]),
        }),
  };
}

function toolSpan(
  registry: SpanRegistry,
  tracer: Tracer,
  parent: Context,
  start: RunStart,
  step: StepRecord,
  call: CallRecord,
  args: ReadonlyMap<string, ToolCall["arguments"]>,
  captureContent: boolean,
): void {
  // A call that never ran (invalid arguments, unknown tool, refused) is shown at the end of its turn.
  const at = call.startedAt ?? (step.startedAt ?? Date.now()) + (step.durationMs ?? 0);
  const attributes: Attributes = {
    ...toolAttributes(start, call.toolName, call.callId),
    [GenAI.outcome]: call.outcome,
    [GenAI.attempts]: call.attempts,
    ...(call.outcome === "ok" ? {} : { [GenAI.errorType]: call.outcome }),
    ...(captureContent
      ? { [GenAI.toolArguments]: argumentsText(args.get(call.callId)), [GenAI.toolResult]: call.content }
      : {}),
  };
  const span =
    registry.takeCall(start.runId, call.callId) ??
    tracer.startSpan(`execute_tool ${call.toolName}`, { kind: SpanKind.INTERNAL, startTime: at }, parent);
  span.setAttributes(attributes);
  if (call.outcome !== "ok") span.setStatus({ code: SpanStatusCode.ERROR, message: call.content });
  span.end(at + (call.durationMs ?? 0));
}

/**
 * The call whose exception ended the run (`onToolException: "fail"`, or a throwing hook):
 * it has no record, so its span runs from the end of its turn to the end of the run,
 * with the exception's type and message.
 */
function failedCall(
  registry: SpanRegistry,
  tracer: Tracer,
  parent: Context,
  start: RunStart,
  step: StepRecord | undefined,
  error: ToolCallFailedError,
): void {
  const at = step?.startedAt === undefined ? Date.now() : step.startedAt + (step.durationMs ?? 0);
  const span =
    registry.takeCall(start.runId, error.callId) ??
    tracer.startSpan(`execute_tool ${error.toolName}`, { kind: SpanKind.INTERNAL, startTime: at }, parent);
  span.setAttributes(toolAttributes(start, error.toolName, error.callId));
  // What the tool's (or hook's) own code threw, not the wrapper that carried it.
  markError(span, error.cause instanceof ToolExceptionError ? error.cause.cause : error.cause);
  span.end(Math.max(at, Date.now()));
}

/** A turn that ended in an error before the model answered (a provider failure, an abort). */
function failedTurn(tracer: Tracer, parent: Context, common: Attributes, at: number, error: unknown): void {
  const span = tracer.startSpan(
    `chat ${common[GenAI.requestModel]}`,
    { kind: SpanKind.CLIENT, startTime: at, attributes: { ...common, [GenAI.operation]: "chat" } },
    parent,
  );
  markError(span, error);
  span.end();
}
