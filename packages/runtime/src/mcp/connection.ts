import { randomUUID } from "node:crypto";
import type { Readable } from "node:stream";
import { setTimeout as delay } from "node:timers/promises";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  ErrorCode,
  McpError,
  type Progress,
  type ProgressNotification,
  ProgressNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { ToolError } from "../errors.js";

/** Makes a fresh transport to a server: what lets `mcpTools` start a server again after it exited. */
export type TransportFactory = () => Transport | Promise<Transport>;

/** How long a server that a transport reported trouble with has to answer a ping before its calls are failed. */
const PROBE_MS = 5_000;
/** Restarts in a row (each followed by no successful call) before a server is given up on. */
const MAX_RESTARTS = 3;
/** Wait before the n-th restart in a row: none for the first, then 250 ms, 500 ms, ... at most 2 s. */
const restartDelayMs = (n: number): number => (n <= 1 ? 0 : Math.min(250 * 2 ** (n - 2), 2_000));
/** How much of a server's stderr is kept, to say why it exited. */
const STDERR_TAIL_CHARS = 1_000;

/**
 * The connection to the server was lost while a call was in flight, and the server does not
 * answer: the call cannot get its answer. Worth a retry for tools that allow one (the
 * request may never have run).
 */
export class ConnectionLostError extends Error {
  override name = "ConnectionLostError";
}

/** Socket-level failures: the request may not have reached the server, or its answer was lost on the way. */
const NETWORK_CODES = new Set([
  "ECONNRESET",
  "ECONNREFUSED",
  "ECONNABORTED",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EAI_AGAIN",
  "UND_ERR_SOCKET",
  "UND_ERR_CLOSED",
  "UND_ERR_CONNECT_TIMEOUT",
]);

/**
 * Errors that say the way to the server failed, not the tool: the connection was found
 * lost, the SDK reports it closed, or a transport could not deliver the request (fetch
 * rejects with a `TypeError` "fetch failed" whose cause is the socket error).
 */
export function isConnectionFailure(error: unknown): boolean {
  if (error instanceof ConnectionLostError) return true;
  if (error instanceof McpError) return error.code === ErrorCode.ConnectionClosed;
  return causes(error).some(
    (e) =>
      (e instanceof TypeError && e.message === "fetch failed") ||
      NETWORK_CODES.has(String((e as NodeJS.ErrnoException).code)),
  );
}

/** The server's stderr, when the transport has one to read (a stdio server started with `stderr: "pipe"`). */
function stderrOf(transport: Transport | undefined): Readable | undefined {
  const stderr = (transport as { stderr?: unknown } | undefined)?.stderr;
  return typeof (stderr as Readable | null | undefined)?.on === "function" ? (stderr as Readable) : undefined;
}

/** The error and its causes, outermost first (a few levels: causes can form a cycle). */
export function causes(error: unknown): Error[] {
  const chain: Error[] = [];
  for (let e = error; e instanceof Error && chain.length < 5; e = e.cause) chain.push(e);
  return chain;
}

/** The message with its causes' messages, so "fetch failed" also says why. */
export function failureText(error: unknown): string {
  const chain = causes(error);
  return chain.length > 0 ? chain.map((e) => e.message).join(": ") : String(error);
}

/**
 * One MCP server as `mcpTools` calls it: its SDK client, watched so that a call never waits
 * on a connection that is gone.
 * - A transport error while calls are in flight (an HTTP server that died mid-call breaks
 *   the call's response stream, and the SDK only reports it on its error channel) makes the
 *   connection ping the server; if the ping fails, every call in flight fails at once with
 *   a {@link ConnectionLostError} naming the cause.
 * - A closed connection (a stdio server that exited) is started again on the next call when
 *   the connection was made from a {@link TransportFactory}, up to {@link MAX_RESTARTS} times
 *   in a row with a growing wait; otherwise the call fails saying the server exited, with
 *   the end of its stderr, and how to have it restarted.
 * - Progress reports reach the call they belong to. The connection hands out its own
 *   `progressToken`s rather than the SDK's `onprogress`: the SDK drops the handler of a
 *   request as soon as its answer is read, before it runs the handlers of notifications read
 *   just before, so the last report before an answer would be lost.
 */
export class ServerConnection {
  private readonly inFlight = new Set<AbortController>();
  private probing = false;
  /** Why the connection is unusable, once it closed or was lost; undefined while it is up. */
  private down: string | undefined;
  private restarts = 0;
  private reconnecting: Promise<void> | undefined;
  private stderrTail = "";
  private closing = false;
  /** The progress listener of each call in flight, by its progressToken. */
  private readonly listeners = new Map<string, (progress: Progress) => void>();

  constructor(
    readonly client: Client,
    /** The server's name for messages. */
    readonly name: () => string,
    private readonly factory: TransportFactory | undefined,
  ) {
    const onclose = client.onclose;
    client.onclose = () => {
      onclose?.();
      if (!this.closing) this.down ??= "its connection closed (a stdio server's process exited)";
    };
    const onerror = client.onerror;
    client.onerror = (error) => {
      onerror?.(error);
      this.troubled(error);
    };
    // The SDK's own handler, for tokens that are not this connection's (a Client passed in may make its own requests).
    const sdkProgress = (client as unknown as { _onprogress?: (note: ProgressNotification) => void })._onprogress;
    client.setNotificationHandler(ProgressNotificationSchema, (note) => {
      const listener = this.listeners.get(String(note.params.progressToken));
      if (listener) listener(note.params);
      else sdkProgress?.call(client, note);
    });
    this.listen(client.transport);
  }

  /** Connects the client over a transport made by the factory (or given), keeping the end of its stderr. */
  static async open(client: Client, transport: Transport, factory: TransportFactory | undefined, name: () => string) {
    const connection = new ServerConnection(client, name, factory);
    connection.listen(transport);
    await client.connect(transport);
    return connection;
  }

  /**
   * Runs one request on the connection under `signal`, and under a signal of the
   * connection's own that aborts it when the connection is found lost; the request is to
   * carry `progressToken`, whose reports go to `onprogress`. Starts the server again first
   * when it exited and can be.
   */
  async request<T>(
    run: (client: Client, signal: AbortSignal, progressToken: string) => Promise<T>,
    signal: AbortSignal,
    onprogress: (progress: Progress) => void,
  ): Promise<T> {
    await this.ready();
    const lost = new AbortController();
    const token = `toolwright-${randomUUID()}`;
    this.inFlight.add(lost);
    this.listeners.set(token, onprogress);
    try {
      const result = await run(this.client, AbortSignal.any([signal, lost.signal]), token);
      this.restarts = 0;
      return result;
    } catch (error) {
      const failure = lost.signal.aborted && !signal.aborted ? lost.signal.reason : error;
      // A connection made by a factory is made again on the next call; without one, later calls try the same client.
      if (this.factory && !signal.aborted && isConnectionFailure(failure)) this.down ??= failureText(failure);
      throw failure;
    } finally {
      this.inFlight.delete(lost);
      this.listeners.delete(token);
    }
  }

  /** Closes the connection for good (the transport mcpTools made or was given). */
  async close(): Promise<void> {
    this.closing = true;
    await this.client.close();
  }

  private listen(transport: Transport | undefined): void {
    stderrOf(transport)?.on("data", (chunk: Buffer | string) => {
      this.stderrTail = (this.stderrTail + String(chunk)).slice(-STDERR_TAIL_CHARS);
    });
  }

  private async ready(): Promise<void> {
    if (this.down === undefined) return;
    if (!this.factory) {
      const stderr = this.stderrTail.trim();
      throw new ToolError(
        `MCP server ${this.name()} cannot be reached: ${this.down}, and toolwright was given no way to start it again.` +
          (stderr ? ` The end of its stderr: ${stderr}` : "") +
          " To have it restarted on the next call, give mcpTools a function that makes the transport, " +
          "e.g. mcpTools(() => new StdioClientTransport({ command, args })).",
      );
    }
    this.reconnecting ??= this.reconnect().finally(() => {
      this.reconnecting = undefined;
    });
    await this.reconnecting;
  }

  private async reconnect(): Promise<void> {
    const factory = this.factory as TransportFactory;
    if (this.restarts >= MAX_RESTARTS) {
      const stderr = this.stderrTail.trim();
      throw new ToolError(
        `MCP server ${this.name()} cannot be reached: ${this.down}, and it was started again ${this.restarts} times ` +
          `in a row without a call succeeding, so it is not started again.${stderr ? ` The end of its stderr: ${stderr}` : ""}`,
      );
    }
    this.restarts++;
    await delay(restartDelayMs(this.restarts));
    // A connection lost over HTTP still holds its transport: let it go before making a new one.
    if (this.client.transport) {
      this.closing = true;
      await this.client.close().catch(() => {});
      this.closing = false;
    }
    const transport = await factory();
    this.listen(transport);
    try {
      await this.client.connect(transport);
    } catch (error) {
      throw new ToolError(
        `MCP server ${this.name()} was started again (${this.down}), and connecting to it failed: ${failureText(error)}`,
        { retryable: true, cause: error },
      );
    }
    this.down = undefined;
    this.stderrTail = "";
  }

  /** A transport error: with calls in flight, find out whether the server is still there. */
  private troubled(error: Error): void {
    if (this.inFlight.size === 0 || this.probing || this.down !== undefined) return;
    this.probing = true;
    this.client
      .ping({ timeout: PROBE_MS })
      .then(
        () => {},
        (pingError: unknown) => {
          const lost = new ConnectionLostError(
            `the connection was lost (${failureText(error)}), and the server does not answer a ping (${failureText(pingError)})`,
          );
          for (const call of this.inFlight) call.abort(lost);
        },
      )
      .finally(() => {
        this.probing = false;
      });
  }
}
