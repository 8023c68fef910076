/**
 * Loop overhead: microseconds per tool call against a zero-latency model. Each run has
 * CALLS model turns with one tool call each (arguments vary, as a model's would) and a
 * final answer; the figure is the median run time over CALLS. The same generated tool
 * (getForecast0) for every system: toolwright's Agent with a Model object, the AI SDK's
 * generateText with MockLanguageModelV3 (the tool written with zod, and the compiled tool
 * handed over by toolwright/ai-sdk, which validates and repairs each call inside its
 * execute), the OpenAI Agents SDK's run() with a Model object.
 * Run alone: `node scripts/bench/loop.mjs [--quick]`.
 */
import { pathToFileURL } from "node:url";
import { Agent as OpenAiAgent, tool as openAiTool, run, setTracingDisabled, Usage } from "@openai/agents-core";
import { tool as aiTool, generateText, stepCountIs } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { Bench } from "tinybench";
import { Agent } from "toolwright";
import { aiSdkTools } from "toolwright/ai-sdk";
import { z } from "zod";
import { description, zodSource } from "./generate/emit.mjs";
import { argsOf, CALLS, FINAL, toolwrightRun } from "./lib/loop-scenario.mjs";
import { prepareProject } from "./lib/prepare.mjs";
import { markdownTable, versus } from "./lib/table.mjs";

/** The AI SDK's tool written with zod, as its users write one. */
function zodToolSet() {
  const inputSchema = new Function("z", `return ${zodSource(0)};`)(z);
  const getForecast0 = aiTool({
    description: description(0),
    inputSchema,
    execute: async ({ city, units, days }) => JSON.stringify([city, units, days]),
  });
  return { getForecast0 };
}

/** The AI SDK: generateText with the SDK's own mock model and the tool set given. */
async function aiSdkRun(tools) {
  const usage = {
    inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: 0, text: 0, reasoning: 0 },
  };
  const turns = Array.from({ length: CALLS }, (_, k) => ({
    content: [{ type: "tool-call", toolCallId: `call_${k}`, toolName: "getForecast0", input: argsOf(k) }],
    finishReason: { unified: "tool-calls", raw: "tool_calls" },
    usage,
    warnings: [],
  }));
  turns.push({
    content: [{ type: "text", text: FINAL }],
    finishReason: { unified: "stop", raw: "stop" },
    usage,
    warnings: [],
  });
  let turn = 0;
  const model = new MockLanguageModelV3({ doGenerate: async () => turns[turn++] });
  return async () => {
    turn = 0;
    const result = await generateText({
      model,
      prompt: "Forecast, please.",
      tools,
      stopWhen: stepCountIs(CALLS + 1),
    });
    if (result.text !== FINAL || result.steps.length !== CALLS + 1) throw new Error("AI SDK run did not finish");
  };
}

/** The OpenAI Agents SDK: run() over a Model object, tracing off (it would export spans). */
function openAiAgentsRun() {
  setTracingDisabled(true);
  // The Agents SDK takes zod only in strict mode, where an optional key is written nullable.
  const parameters = z.object({
    city: z.string().describe('City name, e.g. "Paris".'),
    units: z.enum(["metric", "imperial"]).describe("Unit system of the temperatures."),
    days: z.number().nullable().describe("How many days to forecast."),
  });
  const getForecast0 = openAiTool({
    name: "getForecast0",
    description: description(0),
    parameters,
    execute: async ({ city, units, days }) => JSON.stringify([city, units, days]),
  });
  const turns = Array.from({ length: CALLS }, (_, k) => ({
    usage: new Usage(),
    output: [
      { type: "function_call", callId: `call_${k}`, name: "getForecast0", arguments: argsOf(k), status: "completed" },
    ],
  }));
  turns.push({
    usage: new Usage(),
    output: [
      { type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text: FINAL }] },
    ],
  });
  let turn = 0;
  const model = {
    getResponse: async () => turns[turn++],
    getStreamedResponse: () => {
      throw new Error("not streamed in this benchmark");
    },
  };
  const agent = new OpenAiAgent({ name: "bench", instructions: "Forecast.", model, tools: [getForecast0] });
  return async () => {
    turn = 0;
    const result = await run(agent, "Forecast, please.", { maxTurns: CALLS + 1 });
    if (result.finalOutput !== FINAL) throw new Error("OpenAI Agents SDK run did not finish");
  };
}

/**
 * Measures the loop overhead per tool call and returns table rows.
 *
 * @returns {Promise<import("./lib/table.mjs").Row[]>}
 */
export async function benchLoop({ time = 2000, log = () => {} } = {}) {
  const project = prepareProject(200);
  const { tools } = await import(pathToFileURL(project.toolwrightOut).href);
  const systems = {
    toolwright: toolwrightRun(Agent, tools[0]),
    "AI SDK generateText": await aiSdkRun(zodToolSet()),
    "AI SDK generateText, toolwright/ai-sdk tool": await aiSdkRun(aiSdkTools([tools[0]])),
    "OpenAI Agents SDK run": openAiAgentsRun(),
  };
  const bench = new Bench({ time, warmupTime: Math.min(500, time) });
  for (const [name, fn] of Object.entries(systems)) {
    await fn(); // a wrong scenario fails here, before any timing
    bench.add(name, fn);
  }
  log("loop: runs of 10 tool calls");
  await bench.run();
  const perCall = Object.fromEntries(bench.tasks.map((t) => [t.name, (t.result.latency.p50 * 1000) / CALLS]));
  return Object.entries(perCall).map(([name, us]) => {
    const row = { section: "Loop overhead per tool call", name, value: us, unit: "µs", note: `${CALLS} calls per run` };
    if (name === "toolwright") Object.assign(row, { target: "<= 20 µs", met: us <= 20 });
    else row.ratio = versus(perCall.toolwright, us);
    if (name === "AI SDK generateText")
      Object.assign(row, { target: "toolwright >= 20x faster", met: perCall.toolwright * 20 <= us });
    // The compiled tool in the AI SDK's own loop, against the same tool written with zod there.
    if (name === "AI SDK generateText, toolwright/ai-sdk tool")
      Object.assign(row, {
        ratio: versus(us, perCall["AI SDK generateText"]),
        note: `${CALLS} calls per run; ratio against the zod tool in the same loop`,
      });
    return row;
  });
}

if (process.argv[1] === import.meta.filename) {
  const quick = process.argv.includes("--quick");
  console.log(markdownTable(await benchLoop({ time: quick ? 200 : 2000, log: (l) => console.error(l) })));
}
