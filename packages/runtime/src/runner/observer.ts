import type { Message } from "../model/messages.js";
import type { ToolDefinition } from "../model/model.js";
import type { AgentStreamEvent, RunResult } from "./run-result.js";
import type { StepRecord } from "./types.js";

/** The tool call a run serves, when it runs as a sub-agent (or the MCP call being served). */
export interface CallerRef {
  readonly runId: string;
  readonly callId: string;
  readonly toolName: string;
}

/** What an observer learns as a run starts (fresh, or resumed from a state). */
export interface RunStart {
  readonly agentName: string;
  readonly runId: string;
  /** `provider:model`. */
  readonly modelId: string;
  readonly instructions: string | undefined;
  readonly tools: readonly ToolDefinition[];
  /** The transcript the run starts from. */
  readonly messages: readonly Message[];
  readonly resumed: boolean;
  /** The turns recorded before this start (a resumed run's earlier turns), already seen by an earlier run. */
  readonly previousSteps: readonly StepRecord[];
  /** 0 for a top-level run, 1 for its sub-agents, and so on. */
  readonly depth: number;
  /** The parent's call this run answers, for a sub-agent. */
  readonly parent?: CallerRef;
}

/** How a run ended: with a result (completed or paused), or with an error (a `RunError` carries a partial result). */
export type RunEnding = { readonly result: RunResult } | { readonly error: unknown };

/** Follows one run: every event of its loop (in `run()` too), then its end. */
export interface RunListener {
  event?(event: AgentStreamEvent): void;
  end(ending: RunEnding): void;
}

/** One `tools/call` an MCP server is about to serve. */
export interface ServedCallStart {
  readonly toolName: string;
  readonly callId: string;
  readonly sessionId: string;
  readonly requestId: string | number;
  /** The arguments as the client sent them. */
  readonly args: unknown;
}

/** How a served call ended: the result the client gets, or the exception that became a protocol error. */
export type ServedCallEnding = { readonly isError: boolean; readonly content: string } | { readonly error: unknown };

/**
 * Watches runs and served calls from outside the loop, e.g. to export OpenTelemetry spans
 * (`toolwright/telemetry`). Given to `new Agent({ observers })` or `createMcpServer(tools,
 * { observers })`; a sub-agent run is also shown to its parent run's observers. An
 * observer never changes a run: what it throws is ignored.
 */
export interface RunObserver {
  /** A run starts; return a listener to follow it. */
  run?(start: RunStart): RunListener | undefined;
  /** An MCP server starts serving a call; return a function that hears how it ended. */
  servedCall?(start: ServedCallStart): ((ending: ServedCallEnding) => void) | undefined;
}
