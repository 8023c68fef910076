import type { OutcomeKind } from "./model/messages.js";

/**
 * Base class of every error toolwright throws. Subclasses say who is at fault: the
 * user's configuration ({@link ToolDefinitionError}), the model ({@link ToolArgumentError}),
 * or the tool ({@link ToolError}, {@link Retry}, {@link ToolTimeoutError},
 * {@link ToolShapeError}, {@link ToolExceptionError}).
 */
export class ToolwrightError extends Error {
  override name = "ToolwrightError";
}

/** A tool is defined wrongly: a user's configuration or build mistake, found before any call runs. */
export class ToolDefinitionError extends ToolwrightError {
  override name = "ToolDefinitionError";
  constructor(
    message: string,
    /** The tool's name, or the function's name when the tool has none yet. */
    readonly toolName: string,
  ) {
    super(message);
  }
}

/**
 * A `schema<T>()` is defined wrongly: the build gave it no spec (the transformer did not run
 * on its file, or rejected `T`), or its options are wrong. Found when the schema is made.
 */
export class SchemaDefinitionError extends ToolwrightError {
  override name = "SchemaDefinitionError";
}

/**
 * One problem found in a value, as data. `path` is a JSON Pointer into the arguments
 * (`""` for the whole object, `/items/0/qty` for a nested value).
 */
export interface ValidationIssue {
  /** Stable code: `unexpected_key`, `missing_key`, `invalid_type`, `invalid_enum`, `invalid_value`, `invalid_json`, `too_deep`, `not_finite`, `unreadable`. */
  readonly code: string;
  readonly path: string;
  /** One line a model (or a person) can act on. */
  readonly message: string;
}

/**
 * The model's arguments do not fit the tool's schema (or are not JSON at all). The tool
 * did not run. `message` is the one feedback message the model receives; `issues` are the
 * same problems as data.
 */
export class ToolArgumentError extends ToolwrightError {
  override name = "ToolArgumentError";
  readonly outcome = "invalid_arguments" satisfies OutcomeKind;
  constructor(
    message: string,
    readonly toolName: string,
    readonly issues: readonly ValidationIssue[],
  ) {
    super(message);
  }
}

/** Options of {@link ToolError}. */
export interface ToolErrorOptions {
  /**
   * The failure is transient (a 503, a lock): the engine retries `readOnly` and
   * `idempotent` tools with backoff before the model sees it. Default false.
   */
  readonly retryable?: boolean;
  readonly cause?: unknown;
}

/**
 * Thrown by a tool to report a failure the model should read: its message becomes the
 * `tool_error` result.
 *
 * @example
 * ```ts
 * if (!order) throw new ToolError(`No order ${id}; ids look like "A-771".`);
 * ```
 */
export class ToolError extends ToolwrightError {
  override name = "ToolError";
  readonly outcome = "tool_error" satisfies OutcomeKind;
  readonly retryable: boolean;
  constructor(message: string, options: ToolErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.retryable = options.retryable ?? false;
  }
}

/**
 * Thrown by a tool to ask the model to call again differently; the hint is what the
 * model reads. Counted against the tool's `retries`.
 *
 * @example
 * ```ts
 * if (results.length === 0) throw new Retry("No match: try a shorter query.");
 * ```
 */
export class Retry extends ToolwrightError {
  override name = "Retry";
  readonly outcome = "retry" satisfies OutcomeKind;
  constructor(
    /** What the model should change. */
    readonly hint: string,
  ) {
    super(hint);
  }
}

/** A call ran longer than its time limit; its signal was aborted. */
export class ToolTimeoutError extends ToolwrightError {
  override name = "ToolTimeoutError";
  readonly outcome = "timeout" satisfies OutcomeKind;
  constructor(
    readonly toolName: string,
    readonly timeoutMs: number,
  ) {
    super(
      `tool "${toolName}" did not finish within ${timeoutMs} ms and was stopped. ` +
        `Raise its limit with tool(fn, { timeoutMs }) or the agent's toolTimeoutMs, or make it faster.`,
    );
  }
}

/** A tool returned a value that does not match its declared return type (its `outputSchema`). */
export class ToolShapeError extends ToolwrightError {
  override name = "ToolShapeError";
  readonly outcome = "tool_error" satisfies OutcomeKind;
  constructor(
    message: string,
    readonly toolName: string,
    readonly issues: readonly ValidationIssue[],
  ) {
    super(message);
  }
}

/**
 * A tool threw something other than {@link ToolError} or {@link Retry} (a bug, a
 * library's error). The thrown value is kept as `cause`; the agent's `onToolException`
 * decides what the model sees.
 */
export class ToolExceptionError extends ToolwrightError {
  override name = "ToolExceptionError";
  readonly outcome = "tool_error" satisfies OutcomeKind;
  constructor(
    readonly toolName: string,
    cause: unknown,
  ) {
    super(`tool "${toolName}" threw: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}

/** Every error a tool call can end with; each carries the outcome kind the model is told. */
export type ToolCallError =
  | ToolArgumentError
  | ToolError
  | Retry
  | ToolTimeoutError
  | ToolShapeError
  | ToolExceptionError;

/** A serialized run state cannot be resumed: malformed, tampered with, unsigned, or from another agent. */
export class RunStateError extends ToolwrightError {
  override name = "RunStateError";
}

/** The Agent's options are wrong; found before any model request is made. */
export class AgentConfigError extends ToolwrightError {
  override name = "AgentConfigError";
}

/** An MCP server's options are wrong (`serveMcp`, `createMcpServer`, `serveMcpHttp`); found when the server is made. */
export class McpServerConfigError extends ToolwrightError {
  override name = "McpServerConfigError";
}
