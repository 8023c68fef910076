import { AgentConfigError, type ValidationIssue } from "../errors.js";
import type { AssistantMessage } from "../model/messages.js";
import type { Model, ModelResponse, ModelStreamEvent, ToolDefinition } from "../model/model.js";
import { ANSWER_KEY, type AnswerShape, answerFeedback, answerShape, readAnswer } from "../output/answer.js";
import { PartialAnswer } from "../output/partial-answer.js";
import { schemaInternalsOf } from "../standard/internals.js";
import type { Schema } from "../standard/schema.js";
import type { JsonSchema, ToolSpec } from "../tools/spec.js";
import type { Tool, ToolArgs } from "../tools/tool-types.js";
import { validateArguments } from "../validation/arguments.js";
import type { AgentConfig, AnswerHandler, RunEnv, TakenAnswer } from "./env.js";
import { InvalidAnswerError } from "./run-errors.js";
import type { RunResult } from "./run-result.js";

/** The final-answer tool of `tool` mode. */
export const ANSWER_TOOL = "final_answer";

/** How many refused answers a run gets feedback for and another try after, by default. */
export const DEFAULT_OUTPUT_RETRIES = 2;

/** What both modes share: the answer's shape and the count of refused answers. */
abstract class AnswerBase implements AnswerHandler {
  abstract readonly request: AnswerHandler["request"];
  abstract readonly config: AgentConfig;
  #refused = 0;

  constructor(
    protected readonly shape: AnswerShape,
    private readonly retries: number,
  ) {}

  abstract fromTools(env: RunEnv, partial: () => RunResult): TakenAnswer | undefined;
  abstract watch(): (event: ModelStreamEvent) => unknown;

  fromText(env: RunEnv, response: ModelResponse, partial: () => RunResult): TakenAnswer | undefined {
    const check: ReturnType<typeof readAnswer> =
      response.finishReason === "length"
        ? { ok: false, issues: [CUT_OFF] }
        : readAnswer(this.shape, response.message.content);
    if (check.ok) return { value: check.value };
    this.refuse(check.issues, partial);
    env.snapshot.messages.push({ role: "user", content: this.feedback(check.issues) });
    return undefined;
  }

  /** The message the model reads after a refused text answer. */
  protected feedback(issues: readonly ValidationIssue[]): string {
    return answerFeedback(this.shape, issues);
  }

  /** Counts a refused answer; past the retries, the run ends with {@link InvalidAnswerError}. */
  protected refuse(issues: readonly ValidationIssue[], partial: () => RunResult): void {
    const attempts = ++this.#refused;
    if (attempts <= this.retries) return;
    const result = partial();
    const shown = issues.slice(0, 3).map((i) => i.message);
    if (issues.length > 3) shown.push(`and ${issues.length - 3} more`);
    throw new InvalidAnswerError(
      `agent "${result.agentName}" gave ${attempts} final answer${attempts === 1 ? "" : "s"} that did not match its ` +
        `output schema "${this.shape.format.name}", the last with: ${shown.join("; ")}. Raise outputRetries, say more ` +
        "about the answer in the instructions or the type's TSDoc, or use a model that follows structured output " +
        "(the transcript is in error.result.messages).",
      attempts,
      issues,
      result,
    );
  }
}

const CUT_OFF: ValidationIssue = {
  code: "cut_off",
  path: "",
  message: "the answer was cut off at the output token limit before it was complete; give a shorter one",
};

/** `native`: the format goes with every request; the answer is the text of a turn that calls no tool. */
class NativeAnswer extends AnswerBase {
  readonly request: AnswerHandler["request"];

  constructor(
    shape: AnswerShape,
    retries: number,
    readonly config: AgentConfig,
  ) {
    super(shape, retries);
    this.request = { output: shape.format };
  }

  fromTools(): undefined {
    return undefined;
  }

  watch(): (event: ModelStreamEvent) => unknown {
    const partial = new PartialAnswer(this.shape.wrapped);
    return (event) => {
      if (event.type === "retry") partial.reset();
      return event.type === "text-delta" ? partial.push(event.delta) : undefined;
    };
  }
}

/**
 * `tool`: a `final_answer` tool whose parameters are the answer's schema joins the agent's
 * tools, and every turn must call a tool. Its arguments go through the same checks and
 * feedback as any tool's; the run ends once a call of it is accepted.
 */
class ToolAnswer extends AnswerBase {
  readonly request: AnswerHandler["request"] = { toolChoice: "required" };
  readonly config: AgentConfig;
  readonly #tool: Tool;
  #taken: TakenAnswer | undefined;

  constructor(shape: AnswerShape, retries: number, config: AgentConfig) {
    super(shape, retries);
    if (config.tools.has(ANSWER_TOOL)) {
      throw new AgentConfigError(
        `agent "${config.name}" has a tool named "${ANSWER_TOOL}", the name of the final-answer tool its output needs ` +
          `with this model (outputMode "tool"): rename that tool.`,
      );
    }
    this.#tool = this.answerTool();
    const definition: ToolDefinition = {
      name: ANSWER_TOOL,
      description: this.#tool.description,
      parameters: this.#tool.parameters,
      flags: this.#tool.flags,
    };
    this.config = {
      ...config,
      tools: new Map([...config.tools, [ANSWER_TOOL, this.#tool]]),
      definitions: [...config.definitions, definition].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
    };
  }

  private answerTool(): Tool {
    const { format, wrapped } = this.shape;
    const target = schemaInternalsOf(this.shape.schema);
    // The compiler's check fits the answer's own schema: an object answer is the tool's parameters as they are.
    const spec: Pick<ToolSpec, "parameters" | "validator"> | undefined =
      !wrapped && target?.validator ? { parameters: format.schema, validator: target.validator } : undefined;
    return {
      name: ANSWER_TOOL,
      description:
        `Give your final answer${format.description ? ` (${format.description})` : ""}: call this once you have ` +
        "everything it needs, with the answer as the arguments. Nothing else ends the conversation.",
      parameters: format.schema,
      flags: { readOnly: true, idempotent: true },
      ...(spec ? { spec } : {}),
      execute: (args: ToolArgs) => {
        // The arguments are checked, repaired, dated and frozen; the caller gets its own copy.
        const value: unknown = structuredClone(args);
        this.#taken = { value: wrapped ? (value as Record<string, unknown>)[ANSWER_KEY] : value };
        return "Answer received.";
      },
    };
  }

  fromTools(env: RunEnv, partial: () => RunResult): TakenAnswer | undefined {
    if (this.#taken) return this.#taken;
    const { messages } = env.snapshot;
    let at = messages.length - 1;
    while (at >= 0 && messages[at]?.role !== "assistant") at--;
    const turn = messages[at] as AssistantMessage | undefined;
    const calls = turn?.toolCalls.filter((call) => call.name === ANSWER_TOOL) ?? [];
    const last = calls.at(-1);
    if (!last) return undefined;
    const check = validateArguments(this.#tool, last.arguments);
    this.refuse(check.ok ? [REFUSED_CALL] : check.error.issues, partial);
    return undefined;
  }

  protected override feedback(issues: readonly ValidationIssue[]): string {
    return `${answerFeedback(this.shape, issues)}\nGive it by calling the ${ANSWER_TOOL} tool, with the answer as its arguments.`;
  }

  watch(): (event: ModelStreamEvent) => unknown {
    const partial = new PartialAnswer(this.shape.wrapped);
    let index: number | undefined;
    return (event) => {
      if (event.type === "retry") {
        partial.reset();
        index = undefined;
      } else if (event.type === "tool-call-start" && event.name === ANSWER_TOOL) {
        partial.reset();
        index = event.index;
      } else if (event.type === "tool-call-delta" && event.index === index) {
        return partial.push(event.delta);
      }
      return undefined;
    };
  }
}

/** A valid final-answer call that did not end the run: a hook or a person refused it, or it repeated. */
const REFUSED_CALL: ValidationIssue = {
  code: "refused",
  path: "",
  message: `the ${ANSWER_TOOL} call was not accepted (see its result in the transcript)`,
};

/**
 * The typed final answer of one run: `schema` sent as the model asks (its `outputMode`), and
 * each answer checked against it, with feedback and another try while `retries` last.
 */
export function finalAnswer(
  schema: Schema<unknown>,
  model: Model,
  config: AgentConfig,
  retries: number = DEFAULT_OUTPUT_RETRIES,
): AnswerHandler {
  if (!(Number.isInteger(retries) && retries >= 0)) {
    throw new AgentConfigError(
      `agent "${config.name}": outputRetries must be a whole number of at least 0, got ${retries}.`,
    );
  }
  if (typeof (schema as { jsonSchema?: JsonSchema }).jsonSchema !== "object") {
    throw new AgentConfigError(
      `agent "${config.name}": output must be a schema made by schema<T>() (from "toolwright"), got ${typeof schema}.`,
    );
  }
  const shape = answerShape(schema);
  const mode = model.outputModeFor?.(shape.format, config.definitions) ?? model.outputMode ?? "native";
  return mode === "tool" ? new ToolAnswer(shape, retries, config) : new NativeAnswer(shape, retries, config);
}
