import { describe, expect, it } from "vitest";
import { startScriptedServer } from "../../../../scripts/demo/scripted-server.mjs";
import { Agent } from "../../src/agent/agent.js";
import { resolveModel } from "../../src/providers/resolve.js";
import type { AgentStreamEvent } from "../../src/runner/run-result.js";
import { tool } from "../../src/tools/tool.js";

const city = {
  type: "object",
  properties: { city: { type: "string" } },
  required: ["city"],
  additionalProperties: false,
};

describe("the offline demo's scripted OpenAI-compatible server", () => {
  it("drives a real Agent through the Chat Completions adapter: tools picked from the offer, results summarised", async () => {
    const server = await startScriptedServer();
    const ran: string[] = [];
    try {
      const agent = new Agent({
        name: "demo",
        model: resolveModel(`openai-compatible:scripted-demo@${server.url}`, { env: {} }),
        tools: [
          tool({
            name: "current_weather",
            description: "Current weather in a city.",
            parameters: city,
            execute: (args: Record<string, unknown>) => {
              ran.push(`weather ${String(args.city)}`);
              return { temp_c: 14 };
            },
          }),
          tool({
            name: "getForecast",
            description: "Daily highs for the next days.",
            parameters: {
              ...city,
              properties: { ...city.properties, days: { type: "integer" } },
              required: ["city", "days"],
            },
            execute: (args: Record<string, unknown>) => {
              ran.push(`forecast ${String(args.city)} ${String(args.days)}`);
              return [15, 16];
            },
          }),
        ],
      });
      const events: AgentStreamEvent[] = [];
      const stream = agent.stream("What is the weather in San Francisco right now, and the 2-day forecast?");
      let next = await stream.next();
      while (!next.done) {
        events.push(next.value);
        next = await stream.next();
      }
      expect(ran).toEqual(["weather San Francisco", "forecast San Francisco 2"]);
      expect(events.filter((e) => e.type === "tool-call-delta").length).toBeGreaterThan(2);
      expect(next.value.output).toMatch(
        /^Here is what I found: current_weather said \{"temp_c":14\}; getForecast said \[15,16\]/,
      );
    } finally {
      await server.close();
    }
  });
});
