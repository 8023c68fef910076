import { context, type Span, SpanKind, type Tracer, trace } from "@opentelemetry/api";
import type { CallerRef } from "../runner/observer.js";
import { GenAI } from "./attributes.js";

interface TracedRun {
  readonly span: Span;
  readonly tracer: Tracer;
}

/**
 * The spans of runs in progress, so that a sub-agent's run nests under the parent's
 * `execute_tool` span. That span is started when the sub-run starts (the call is running
 * then) and ended by the parent when it records the call. One registry serves every
 * `openTelemetry()` observer ({@link tracedRuns}): a run is traced once, by the first
 * observer that hears it start, when the parent and the sub-agent each carry one.
 */
export class SpanRegistry {
  readonly #runs = new Map<string, TracedRun>();
  readonly #calls = new Map<string, Span>();

  /** True while another observer traces this run. */
  has(runId: string): boolean {
    return this.#runs.has(runId);
  }

  addRun(runId: string, span: Span, tracer: Tracer): void {
    this.#runs.set(runId, { span, tracer });
  }

  /** Forgets a finished run, and any call span of it left open (its record never came). */
  endRun(runId: string): void {
    this.#runs.delete(runId);
    for (const [key, span] of this.#calls) {
      if (key.startsWith(`${runId}\u0000`)) {
        span.end();
        this.#calls.delete(key);
      }
    }
  }

  /** The context a run starts in: under its caller's tool span when the caller is traced here. */
  contextFor(parent: CallerRef | undefined) {
    const parentRun = parent && this.#runs.get(parent.runId);
    if (!parent || !parentRun) return context.active();
    const key = `${parent.runId}\u0000${parent.callId}`;
    let span = this.#calls.get(key);
    if (!span) {
      // The parent's call, so the parent's tracer.
      span = parentRun.tracer.startSpan(
        `execute_tool ${parent.toolName}`,
        { kind: SpanKind.INTERNAL, attributes: { [GenAI.operation]: "execute_tool" } },
        trace.setSpan(context.active(), parentRun.span),
      );
      this.#calls.set(key, span);
    }
    return trace.setSpan(context.active(), span);
  }

  /** The call span a sub-run made for this call, handed over to be finished. */
  takeCall(runId: string, callId: string): Span | undefined {
    const key = `${runId}\u0000${callId}`;
    const span = this.#calls.get(key);
    this.#calls.delete(key);
    return span;
  }
}

/** The runs every `openTelemetry()` observer of this process traces. */
export const tracedRuns = new SpanRegistry();
