// The offline demo's scripted "model": it reads the tools it is offered and the last
// message, and answers the way a tool-calling model would. It is a script, not a model.

/** @typedef {{ name: string, description?: string, parameters?: { properties?: Record<string, { type?: unknown }>, required?: string[] } }} OfferedTool */
/** @typedef {{ name: string, args: Record<string, unknown> }} PlannedCall */

const CITY = /\bin ([A-Z][\w-]*(?: [A-Z][\w-]*)*)/;

function cityOf(text) {
  return CITY.exec(text)?.[1];
}

function daysOf(text) {
  const m = /(\d+)[- ]day/.exec(text);
  return m ? Number(m[1]) : 3;
}

/** Arguments for `tool` filled from what the user said, using only the keys its schema has. */
function argsFor(tool, text) {
  const props = tool.parameters?.properties ?? {};
  const args = {};
  const city = cityOf(text);
  for (const key of Object.keys(props)) {
    if ((key === "city" || key === "query") && city) args[key] = city;
    else if (key === "days") args.days = daysOf(text);
  }
  return args;
}

const INTENTS = [
  // "Weather" only asks for current conditions when a city is named ("weather alerts at home" does not).
  {
    test: (t) => /\b(weather|temperature|right now)\b/i.test(t) && cityOf(t) !== undefined,
    tool: (n) => /weather/.test(n),
  },
  { test: (t) => /\bforecast|next \d+ days|\d+-day\b/i.test(t), tool: (n) => /forecast/i.test(n) },
  { test: (t) => /\balerts?\b|\bwarnings?\b/i.test(t), tool: (n) => /alert/i.test(n) },
  { test: (t) => /\bwhich\b|\bfind\b|\bsearch\b/i.test(t), tool: (n) => /search/i.test(n) },
];

/**
 * Decides one turn: tool calls for a user question, or a final answer built from the
 * tool results that just came back.
 * @param {OfferedTool[]} tools
 * @param {{ role: string, content?: unknown, tool_call_id?: string, tool_calls?: { id: string, function: { name: string } }[] }[]} messages
 * @returns {{ text: string, calls: PlannedCall[] }}
 */
export function decide(tools, messages) {
  const last = messages.at(-1);
  if (last?.role === "tool") {
    const names = new Map();
    for (const m of messages) for (const c of m.tool_calls ?? []) names.set(c.id, c.function.name);
    const results = [];
    for (let i = messages.length - 1; i >= 0 && messages[i].role === "tool"; i--) {
      results.unshift(`${names.get(messages[i].tool_call_id) ?? "tool"} said ${String(messages[i].content)}`);
    }
    return { text: `Here is what I found: ${results.join("; ")}.`, calls: [] };
  }
  const text = typeof last?.content === "string" ? last.content : "";
  const calls = [];
  for (const intent of INTENTS) {
    if (!intent.test(text)) continue;
    const tool = tools.find((t) => intent.tool(t.name));
    if (tool && !calls.some((c) => c.name === tool.name)) calls.push({ name: tool.name, args: argsFor(tool, text) });
  }
  if (calls.length === 0) {
    return {
      text: `I can use these tools: ${tools.map((t) => t.name).join(", ")}. Ask about weather, forecasts or alerts.`,
      calls,
    };
  }
  return { text: "", calls };
}
