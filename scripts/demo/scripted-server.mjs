// A local server speaking the OpenAI Chat Completions protocol (streamed and not) on
// 127.0.0.1, driven by the scripted policy in policy.mjs. Used when no API key is set.
import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import { decide } from "./policy.mjs";

const id = () => `call_${randomBytes(6).toString("hex")}`;

function completion(turn) {
  const calls = turn.calls.map((c) => ({
    id: id(),
    type: "function",
    function: { name: c.name, arguments: JSON.stringify(c.args) },
  }));
  return {
    id: "chatcmpl-offline",
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model: "scripted-demo",
    choices: [
      {
        index: 0,
        finish_reason: calls.length > 0 ? "tool_calls" : "stop",
        message: { role: "assistant", content: turn.text || null, ...(calls.length > 0 ? { tool_calls: calls } : {}) },
      },
    ],
    usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
  };
}

function* chunks(turn) {
  const chunk = (delta, finish = null) => ({
    id: "chatcmpl-offline",
    object: "chat.completion.chunk",
    created: Math.floor(Date.now() / 1000),
    model: "scripted-demo",
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  yield chunk({ role: "assistant", content: "" });
  for (const word of turn.text.split(/(?<= )/)) if (word) yield chunk({ content: word });
  for (const [index, c] of turn.calls.entries()) {
    yield chunk({ tool_calls: [{ index, id: id(), type: "function", function: { name: c.name, arguments: "" } }] });
    const json = JSON.stringify(c.args);
    // Arguments arrive in pieces, as they do from a real model.
    for (let i = 0; i < json.length; i += 8) {
      yield chunk({ tool_calls: [{ index, function: { arguments: json.slice(i, i + 8) } }] });
    }
  }
  yield chunk({}, turn.calls.length > 0 ? "tool_calls" : "stop");
  yield { ...chunk({}), choices: [], usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 } };
}

/** Starts the scripted server on a free port of 127.0.0.1; resolves to its base URL and a close function. */
export async function startScriptedServer() {
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => {
      body += c;
    });
    req.on("end", () => {
      if (req.method !== "POST" || !req.url?.endsWith("/chat/completions")) {
        res.writeHead(404, { "content-type": "application/json" });
        res.end(
          JSON.stringify({ error: { message: `no route ${req.method} ${req.url}`, type: "invalid_request_error" } }),
        );
        return;
      }
      const request = JSON.parse(body);
      const tools = (request.tools ?? []).map((t) => t.function);
      const turn = decide(tools, request.messages ?? []);
      if (!request.stream) {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify(completion(turn)));
        return;
      }
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      for (const c of chunks(turn)) res.write(`data: ${JSON.stringify(c)}\n\n`);
      res.end("data: [DONE]\n\n");
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}/v1`,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
