/**
 * The loop benchmark's scenario, shared by loop.mjs (toolwright against its peers) and
 * loop-ab.mjs (builds of toolwright against each other): CALLS model turns with one tool
 * call each (arguments vary, as a model's would), then a final answer.
 */

/** Tool calls per run. */
export const CALLS = 10;
export const FINAL = "Done.";
export const argsOf = (k) => JSON.stringify({ city: `City ${k}`, units: "metric", days: k + 1 });

/**
 * toolwright: an Agent (from the build under test) over a Model object that answers from
 * precomputed turns. Returns one run; `label` names the build in the error of a run that
 * did not finish.
 */
export function toolwrightRun(Agent, forecast, label = "toolwright") {
  const usage = { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 };
  const turns = Array.from({ length: CALLS }, (_, k) => ({
    message: {
      role: "assistant",
      content: "",
      toolCalls: [{ id: `call_${k}`, name: forecast.name, arguments: argsOf(k) }],
    },
    usage,
    finishReason: "tool_calls",
  }));
  turns.push({ message: { role: "assistant", content: FINAL, toolCalls: [] }, usage, finishReason: "stop" });
  let turn = 0;
  const model = { id: "bench:zero-latency", generate: async () => turns[turn++] };
  const agent = new Agent({ name: "bench", model, tools: [forecast], maxTurns: CALLS + 1 });
  return async () => {
    turn = 0;
    const result = await agent.run("Forecast, please.");
    if (result.output !== FINAL || result.steps.length !== CALLS + 1) throw new Error(`${label}: run did not finish`);
  };
}
