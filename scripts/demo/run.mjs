#!/usr/bin/env node
// The demo's agent runner: runs the weather example's agent against a real provider when
// OPENAI_API_KEY, ANTHROPIC_API_KEY or GEMINI_API_KEY (GOOGLE_API_KEY) is set, and
// otherwise against a scripted OpenAI-compatible server on 127.0.0.1, saying so plainly.
// Tool calls and results are printed as they happen (agent.stream).
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { startScriptedServer } from "./scripted-server.mjs";

const root = fileURLToPath(new URL("../../", import.meta.url));
const agentModule = `${root}examples/weather/dist/agent.js`;
const runtimeModule = `${root}packages/runtime/dist/providers/index.js`;
if (!existsSync(agentModule) || !existsSync(runtimeModule)) {
  console.error("The demo needs the built runtime and weather example: run `npm run demo` from the repository root.");
  process.exit(1);
}
const { weatherAgent } = await import(agentModule);
const { resolveModel } = await import(runtimeModule);

const QUESTIONS = [
  "What is the weather in Paris right now, and the 3-day forecast?",
  "Are there any weather alerts at home?",
];

/** The real provider to use, from the environment; `undefined` means offline. */
function onlineModel(env) {
  if (env.TOOLWRIGHT_DEMO_MODEL) return env.TOOLWRIGHT_DEMO_MODEL;
  if (env.OPENAI_API_KEY) return "openai:gpt-5-mini";
  if (env.ANTHROPIC_API_KEY) return "anthropic:claude-sonnet-4-5";
  if (env.GEMINI_API_KEY || env.GOOGLE_API_KEY) return "gemini:gemini-2.5-flash";
  return undefined;
}

const short = (value, max = 160) => {
  const text = (typeof value === "string" ? value : JSON.stringify(value)).replace(/\s+/g, " ");
  return text.length > max ? `${text.slice(0, max)}…` : text;
};

async function main() {
  const chosen = onlineModel(process.env);
  let server;
  let model;
  if (chosen) {
    console.log(`ONLINE: running the weather agent against ${chosen} (real API calls, real tokens).`);
    model = resolveModel(chosen);
  } else {
    server = await startScriptedServer();
    console.log(
      "OFFLINE: no OPENAI_API_KEY, ANTHROPIC_API_KEY or GEMINI_API_KEY is set, so the agent talks to a scripted\n" +
        `OpenAI-compatible server at ${server.url}. Its answers come from a script that picks tools by keyword, not from a model.\n` +
        "Set one of those keys to run the same agent against the real API.",
    );
    model = resolveModel(`openai-compatible:scripted-demo@${server.url}`);
  }
  const deps = {
    home: "Paris",
    alerts: { active: (city) => (city.toLowerCase() === "paris" ? ["Wind advisory until 18:00"] : []) },
  };
  const agent = weatherAgent(model);
  try {
    for (const question of QUESTIONS) {
      console.log(`\n> ${question}`);
      const events = agent.stream(question, { deps });
      let result;
      let midLine = false;
      for (;;) {
        const next = await events.next();
        if (next.done) {
          result = next.value;
          break;
        }
        const e = next.value;
        if (e.type === "text-delta") {
          process.stdout.write(e.delta);
          midLine = true;
          continue;
        }
        if (midLine) process.stdout.write("\n");
        midLine = false;
        if (e.type === "tool-call-end") console.log(`  → ${e.call.name}(${short(e.call.arguments ?? {})})`);
        else if (e.type === "tool-result")
          console.log(`  ← ${e.message.toolName} [${e.message.outcome}] ${short(e.message.content)}`);
        else if (e.type === "model-retry")
          console.log(`  ↻ the provider failed mid-turn; sending the turn again (${e.error.message})`);
      }
      if (midLine) process.stdout.write("\n");
      const u = result.usage;
      const tokens =
        u.inputTokens + u.outputTokens > 0 ? `, ${u.inputTokens} input / ${u.outputTokens} output tokens` : "";
      console.log(`  (${result.steps.length} model turns${tokens})`);
    }
  } finally {
    await server?.close();
  }
}

main().catch((error) => {
  console.error(`demo failed: ${error?.message ?? error}`);
  process.exit(1);
});
