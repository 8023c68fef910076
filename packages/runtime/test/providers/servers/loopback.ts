import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One request the loopback server received. */
export interface Captured {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingMessage["headers"];
  readonly body: Record<string, unknown>;
}

/** A tool call a scripted turn makes. `id: null` makes the server leave the id out. */
export interface ScriptedCall {
  readonly id?: string | null;
  readonly name: string;
  readonly args: Record<string, unknown>;
  /** The arguments text to send instead of `args` as JSON (Chat Completions): broken JSON, for repair tests. */
  readonly rawArgs?: string;
}

/** A successful model turn, in provider-neutral form; each server renders it in its own wire format. */
export interface ScriptedTurn {
  readonly text?: string;
  /** A refusal in place of the text (OpenAI Chat's `refusal`, a Responses `refusal` part), as under structured output. */
  readonly refusal?: string;
  readonly calls?: readonly ScriptedCall[];
  readonly usage?: { readonly input: number; readonly output: number; readonly cached?: number };
  /** The model the answer names (each server has its own default), e.g. a dated snapshot. */
  readonly model?: string;
  /**
   * Deliver the body in two writes split inside its first multi-byte UTF-8 character, the
   * second a moment later, so the client reads half a character at the end of one chunk.
   */
  readonly splitInsideChar?: boolean;
}

/** A failure a server injects instead of a turn. */
export interface ScriptedFault {
  readonly fault: "429" | "500" | "529" | "400" | "reset" | "truncate" | "error-event" | "hang";
  /**
   * Where a `truncate` cuts the body. `"frame"` (default): after half of the SSE frames (half
   * of the JSON), then the socket is destroyed. `"inside-frame"`: one byte short of the
   * end of the frame that completes the turn (of the JSON body), so that frame never gets
   * its closing blank line; `"inside-char"`: in
   * the middle of the body's first multi-byte UTF-8 character. Both of these end the body
   * cleanly (no content-length, no chunking, the connection closes), so the client sees an
   * ordinary end of stream, not a network error.
   */
  readonly at?: "frame" | "inside-frame" | "inside-char";
  readonly retryAfter?: string;
  readonly retryAfterMs?: string;
}

export type ScriptStep = ScriptedTurn | ScriptedFault;

/** How one provider's server renders turns and faults. */
export interface WireRenderer {
  /** Whether this request asked for a stream. */
  isStream(req: Captured): boolean;
  /** The JSON body of a non-streamed turn. */
  json(turn: ScriptedTurn, req: Captured): unknown;
  /** The SSE frames (`event:`/`data:` text, blank-line terminated) of a streamed turn. */
  sse(turn: ScriptedTurn, req: Captured): string[];
  /**
   * Index in `sse()`'s frames of the frame that completes the turn (default: the last), for
   * cuts inside it. OpenAI Chat takes a turn as complete at its finish_reason, before `[DONE]`.
   */
  completingFrame?(frames: readonly string[]): number;
  /** The error body for an HTTP error status. */
  errorBody(status: number): unknown;
  /** The frame of an error event inside a 200 stream. */
  errorEvent(): string;
}

/** A running loopback server and what it saw. */
export interface Loopback {
  readonly url: string;
  readonly requests: Captured[];
  close(): Promise<void>;
}

function isFault(step: ScriptStep): step is ScriptedFault {
  return "fault" in step;
}

/** Splits a string into `n` pieces (the last ones may be empty), the way servers fragment arguments. */
export function fragments(text: string, n = 3): string[] {
  const size = Math.ceil(text.length / n);
  return Array.from({ length: n }, (_, i) => text.slice(i * size, (i + 1) * size));
}

/** A byte offset in the middle of the first multi-byte UTF-8 character of `body`. */
function insideFirstChar(body: Buffer): number {
  const lead = body.findIndex((byte) => byte >= 0xc0);
  if (lead < 0) throw new Error("the scripted turn has no multi-byte character to cut inside");
  return lead + 1;
}

/**
 * Answers 200 with `body` delimited by the end of the connection (HTTP/1.1 without
 * content-length or chunking), written on the raw socket: whatever was cut off, the
 * client sees a body that ended normally.
 */
function endCleanly(res: ServerResponse, stream: boolean, body: Buffer): void {
  const type = stream ? "text/event-stream" : "application/json";
  res.socket?.end(
    Buffer.concat([Buffer.from(`HTTP/1.1 200 OK\r\ncontent-type: ${type}\r\nconnection: close\r\n\r\n`), body]),
  );
}

/** Writes `body` in two pieces split inside its first multi-byte character, then ends the response. */
function endSplitInsideChar(res: ServerResponse, body: string): void {
  const bytes = Buffer.from(body);
  const at = insideFirstChar(bytes);
  res.write(bytes.subarray(0, at));
  // A pause, so the second half arrives in a later read than the first.
  setTimeout(() => res.end(bytes.subarray(at)), 10);
}

function sendFault(
  step: ScriptedFault,
  renderer: WireRenderer,
  req: Captured,
  res: ServerResponse,
  turn: ScriptedTurn,
) {
  const status = Number(step.fault);
  if (Number.isInteger(status)) {
    const headers: Record<string, string> = { "content-type": "application/json", "x-request-id": "req_test" };
    if (step.retryAfter !== undefined) headers["retry-after"] = step.retryAfter;
    if (step.retryAfterMs !== undefined) headers["retry-after-ms"] = step.retryAfterMs;
    res.writeHead(status, headers).end(JSON.stringify(renderer.errorBody(status)));
    return;
  }
  if (step.fault === "hang") return; // Never answers: for time limits and aborts.
  if (step.fault === "reset") {
    res.socket?.destroy();
    return;
  }
  const stream = renderer.isStream(req);
  if (step.fault === "truncate" && step.at !== undefined && step.at !== "frame") {
    const frames = renderer.sse(turn, req);
    const upToEnd = frames.slice(0, (renderer.completingFrame?.(frames) ?? frames.length - 1) + 1);
    const body = Buffer.from(stream ? upToEnd.join("") : JSON.stringify(renderer.json(turn, req)));
    endCleanly(res, stream, body.subarray(0, step.at === "inside-frame" ? body.length - 1 : insideFirstChar(body)));
    return;
  }
  if (step.fault === "truncate") {
    // Half of the turn, then the connection drops.
    if (stream) {
      const frames = renderer.sse(turn, req);
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write(frames.slice(0, Math.max(1, Math.floor(frames.length / 2))).join(""));
    } else {
      const text = JSON.stringify(renderer.json(turn, req));
      res.writeHead(200, { "content-type": "application/json", "content-length": String(text.length) });
      res.write(text.slice(0, text.length / 2));
    }
    setTimeout(() => res.socket?.destroy(), 5);
    return;
  }
  // error-event: a 200 stream that starts a turn and then reports an error.
  if (stream) {
    res.writeHead(200, { "content-type": "text/event-stream" });
    const frames = renderer.sse(turn, req);
    res.end(frames.slice(0, Math.max(1, Math.floor(frames.length / 2))).join("") + renderer.errorEvent());
  } else {
    res.writeHead(500, { "content-type": "application/json" }).end(JSON.stringify(renderer.errorBody(500)));
  }
}

/**
 * Starts a node:http server on 127.0.0.1 (port 0) that answers request N with step N of
 * the script, rendered by one provider's wire renderer. A fault step is followed by the
 * next turn step for the partial content it shows.
 */
export async function startLoopback(renderer: WireRenderer, script: readonly ScriptStep[]): Promise<Loopback> {
  const requests: Captured[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      const captured: Captured = {
        method: req.method ?? "",
        path: req.url ?? "",
        headers: req.headers,
        body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
      };
      const n = requests.push(captured) - 1;
      const step = script[n];
      if (step === undefined) {
        res.writeHead(500, { "content-type": "application/json", "x-should-retry": "false" });
        res.end(JSON.stringify(renderer.errorBody(500)));
        return;
      }
      if (isFault(step)) {
        const next = script.slice(n + 1).find((s): s is ScriptedTurn => !isFault(s)) ?? { text: "partial" };
        sendFault(step, renderer, captured, res, next);
        return;
      }
      const stream = renderer.isStream(captured);
      const body = stream ? renderer.sse(step, captured).join("") : JSON.stringify(renderer.json(step, captured));
      res.writeHead(
        200,
        stream
          ? { "content-type": "text/event-stream", "cache-control": "no-cache" }
          : { "content-type": "application/json" },
      );
      if (step.splitInsideChar) endSplitInsideChar(res, body);
      else res.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Request `n` the server received; fails the test if it never came. */
export function nth(server: Loopback, n: number): Captured {
  const r = server.requests[n];
  if (!r) throw new Error(`the server got ${server.requests.length} requests, not ${n + 1}`);
  return r;
}
