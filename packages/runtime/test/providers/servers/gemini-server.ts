import { fragments, type ScriptedTurn, type WireRenderer } from "./loopback.js";

function data(value: unknown): string {
  return `data: ${JSON.stringify(value)}\n\n`;
}

/** Function-call parts; the first carries a thought signature, as Gemini 3 sends it. */
function callParts(turn: ScriptedTurn) {
  return (turn.calls ?? []).map((c, i) => ({
    functionCall: { ...(c.id === null ? {} : { id: c.id ?? `fc_${i}` }), name: c.name, args: c.args },
    ...(i === 0 ? { thoughtSignature: `sig-${c.name}` } : {}),
  }));
}

function usage(turn: ScriptedTurn) {
  const u = turn.usage ?? { input: 10, output: 5 };
  return {
    promptTokenCount: u.input,
    candidatesTokenCount: u.output - 2,
    thoughtsTokenCount: 2,
    totalTokenCount: u.input + u.output,
    cachedContentTokenCount: u.cached ?? 0,
  };
}

const STATUS: Record<number, string> = {
  400: "INVALID_ARGUMENT",
  429: "RESOURCE_EXHAUSTED",
  500: "INTERNAL",
  529: "UNAVAILABLE",
};

/** Gemini generateContent / streamGenerateContent?alt=sse as the sheet gives them. */
export function geminiRenderer(): WireRenderer {
  return {
    isStream: (req) => req.path.includes(":streamGenerateContent"),
    json: (turn) => ({
      candidates: [
        {
          index: 0,
          finishReason: "STOP",
          content: { role: "model", parts: [...(turn.text ? [{ text: turn.text }] : []), ...callParts(turn)] },
        },
      ],
      usageMetadata: usage(turn),
      modelVersion: turn.model ?? "gemini-2.5-flash",
    }),
    sse(turn) {
      const chunk = (parts: unknown[], last: boolean) =>
        data({
          candidates: [{ index: 0, content: { role: "model", parts }, ...(last ? { finishReason: "STOP" } : {}) }],
          ...(last ? { usageMetadata: usage(turn) } : {}),
          modelVersion: turn.model ?? "gemini-2.5-flash",
        });
      const frames = fragments(turn.text ?? "", 2)
        .filter(Boolean)
        .map((text) => chunk([{ text }], false));
      for (const part of callParts(turn)) frames.push(chunk([part], false));
      frames.push(chunk([], true));
      return frames;
    },
    errorBody: (status) => ({
      error: { code: status, message: `scripted ${status}`, status: STATUS[status] ?? "INTERNAL" },
    }),
    errorEvent: () => data({ error: { code: 503, message: "The model is overloaded.", status: "UNAVAILABLE" } }),
  };
}
