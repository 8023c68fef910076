import { ToolError } from "../errors.js";
import type { ToolContext } from "../invoke/context.js";
import type { Capability, Touched } from "../policy/capabilities.js";
import type { Tool, ToolArgs } from "../tools/tool-types.js";
import { MaxDepthExceededError, RunAbortedError, RunError } from "./run-errors.js";
import type { RunResult } from "./run-result.js";
import { parentRun } from "./tool-context.js";
import { addUsage } from "./usage.js";

/** Options of `agent.asTool()`. */
export interface SubAgentToolOptions {
  /** The tool name the parent's model sees. */
  readonly name: string;
  /** When the parent's model should hand work to this agent. */
  readonly description: string;
  /**
   * What calling this agent touches, for the parent's trifecta policy. Whatever the
   * sub-agent's own tools touch counts in the parent's run either way (they share one record).
   */
  readonly capabilities?: readonly Capability[];
}

/** Where a sub-run sits: one deeper than its parent, with what is left of the parent's budget. */
export interface ChildRun {
  readonly depth: number;
  readonly remainingUsd: number | undefined;
  readonly deps: unknown;
  readonly signal: AbortSignal;
  /** The parent run's record of what it touched, shared so the trifecta spans both runs. */
  readonly touched: Touched | undefined;
  /** The parent run's memory scope: a sub-agent remembers for its caller's user or session. */
  readonly memoryScope: string | undefined;
  /** The parent's call this run answers: its observers follow the sub-run too. */
  readonly caller: ToolContext<unknown>;
}

/**
 * A tool that runs another agent on a child context: the call's signal (the parent's
 * cancellation and this call's time limit), the parent's deps, what is left of its
 * budget and its depth flow down; the sub-run's usage is added to the parent's.
 */
export function subAgentTool(
  agentName: string,
  maxDepth: number,
  options: SubAgentToolOptions,
  run: (input: string, child: ChildRun) => Promise<RunResult>,
): Tool {
  return {
    name: options.name,
    description: options.description,
    parameters: {
      type: "object",
      properties: {
        input: {
          type: "string",
          description: `The complete request for the ${agentName} agent, with every detail it needs.`,
        },
      },
      required: ["input"],
      additionalProperties: false,
    },
    flags: { openWorld: true },
    ...(options.capabilities ? { capabilities: options.capabilities } : {}),
    async execute(args: ToolArgs, ctx: ToolContext<never>): Promise<string> {
      const parent = parentRun(ctx);
      const depth = (parent?.depth ?? 0) + 1;
      if (depth > maxDepth) {
        const error = new MaxDepthExceededError(agentName, maxDepth);
        throw new ToolError(error.message, { cause: error });
      }
      const remainingUsd = parent?.maxCostUsd === undefined ? undefined : parent.maxCostUsd - ctx.usage.costUsd;
      let result: RunResult;
      try {
        result = await run(String(args.input), {
          depth,
          remainingUsd,
          deps: ctx.deps,
          signal: ctx.signal,
          touched: parent?.snapshot.touched,
          memoryScope: parent && (parent.memoryScope ?? `session:${parent.snapshot.runId}`),
          caller: ctx,
        });
      } catch (error) {
        if (!(error instanceof RunError)) throw error;
        if (parent) addUsage(parent.snapshot.usage, error.result.usage);
        if (error instanceof RunAbortedError) throw error;
        throw new ToolError(`the ${agentName} agent stopped before answering: ${error.message}`, { cause: error });
      }
      if (parent) addUsage(parent.snapshot.usage, result.usage);
      if (result.status === "interrupted") {
        const names = result.interruptions.map((i) => i.toolName).join(", ");
        throw new ToolError(
          `the ${agentName} agent paused for approval of ${names}, which a sub-agent cannot get; answer without it.`,
        );
      }
      return result.output ?? "";
    },
  };
}
