import { type Tracer, trace } from "@opentelemetry/api";
import type { RunObserver } from "../runner/observer.js";
import { runSpans } from "./run-spans.js";
import { servedCallSpan } from "./served-call-span.js";
import { tracedRuns } from "./span-registry.js";

/** Options of {@link openTelemetry}. */
export interface OpenTelemetryOptions {
  /** The tracer to use (default: the globally registered provider's `"toolwright"` tracer). */
  readonly tracer?: Tracer;
  /**
   * Also record messages, system instructions, tool arguments and results on the spans
   * (default false: they may hold personal data).
   */
  readonly captureContent?: boolean;
}

/**
 * OpenTelemetry spans per the GenAI semantic conventions: `invoke_agent` per run, `chat`
 * per model turn, `execute_tool` per call (sub-agent runs nest under the parent's call),
 * and `tools/call` for calls an MCP server serves. A run is traced once however many of
 * its agents (a parent and its sub-agents) carry an `openTelemetry()` observer: by the
 * first to hear it start, with that observer's tracer. Import `toolwright/telemetry` only
 * where you want spans: the rest of toolwright never loads `@opentelemetry/api`.
 *
 * @example
 * ```ts
 * import { openTelemetry } from "toolwright/telemetry";
 * const agent = new Agent({ name: "support", model, tools, observers: [openTelemetry()] });
 * ```
 */
export function openTelemetry(options: OpenTelemetryOptions = {}): RunObserver {
  const tracer = options.tracer ?? trace.getTracer("toolwright");
  const captureContent = options.captureContent ?? false;
  return {
    run: (start) => runSpans(tracedRuns, tracer, start, captureContent),
    servedCall: (start) => servedCallSpan(tracer, start, captureContent),
  };
}
