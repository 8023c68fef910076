import { type ChildProcess, spawn } from "node:child_process";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

/** One tsserver response. */
export interface Response<T> {
  readonly success: boolean;
  readonly message?: string;
  readonly body?: T;
}

/** A diagnostic as `semanticDiagnosticsSync` returns it (1-based lines and offsets). */
export interface ServerDiagnostic {
  readonly start: { line: number; offset: number };
  readonly end: { line: number; offset: number };
  readonly text: string;
  readonly code: number;
  readonly category: string;
}

/** A code fix as `getCodeFixes` returns it. */
export interface ServerCodeFix {
  readonly fixName: string;
  readonly description: string;
  readonly changes: {
    fileName: string;
    textChanges: { start: { line: number; offset: number }; end: { line: number; offset: number }; newText: string }[];
  }[];
}

interface Message {
  readonly type: string;
  readonly request_seq?: number;
  readonly success?: boolean;
  readonly message?: string;
  readonly body?: unknown;
}

/**
 * A real `tsserver` process (the workspace's TypeScript) spoken to over stdio: requests
 * are JSON lines, responses come back framed by `Content-Length` headers (in bytes).
 */
export class TsServer {
  private readonly child: ChildProcess;
  private buffer = Buffer.alloc(0);
  private seq = 0;
  private readonly waiting = new Map<number, { resolve: (m: Message) => void; reject: (e: Error) => void }>();
  private stderr = "";

  /**
   * @param probeLocation a folder whose node_modules holds `@toolwright/compiler`, as an editor
   * passes its workspace folder.
   * @param tsserverPath the tsserver.js to run (default: the workspace's TypeScript).
   */
  constructor(probeLocation: string, tsserverPath: string = require.resolve("typescript/lib/tsserver.js")) {
    this.child = spawn(
      process.execPath,
      [tsserverPath, "--pluginProbeLocations", probeLocation, "--disableAutomaticTypingAcquisition"],
      { stdio: ["pipe", "pipe", "pipe"], env: { ...process.env, TSS_LOG: process.env.TOOLWRIGHT_TSS_LOG ?? "" } },
    );
    this.child.stdout?.on("data", (chunk: Buffer) => this.receive(chunk));
    this.child.stderr?.on("data", (chunk: Buffer) => {
      this.stderr += chunk.toString();
    });
    this.child.on("exit", (code) => {
      for (const { reject } of this.waiting.values()) reject(new Error(`tsserver exited (${code}): ${this.stderr}`));
      this.waiting.clear();
    });
  }

  /** Sends a request and waits for its response. */
  request<T>(command: string, args: unknown): Promise<Response<T>> {
    const seq = this.send(command, args);
    return new Promise((resolve, reject) => {
      this.waiting.set(seq, { resolve: (message) => resolve(message as Response<T>), reject });
    });
  }

  /** Sends a command that has no response when it succeeds (`open`, `change`, `updateOpen`). */
  notify(command: string, args: unknown): void {
    this.send(command, args);
  }

  /** Opens a file from disk in the editor. */
  open(file: string): void {
    this.notify("open", { file });
  }

  /** The file's semantic diagnostics (TypeScript's and the plugins'). */
  async diagnostics(file: string): Promise<ServerDiagnostic[]> {
    const response = await this.request<ServerDiagnostic[]>("semanticDiagnosticsSync", { file });
    if (!response.success) throw new Error(`semanticDiagnosticsSync failed: ${response.message}`);
    return response.body ?? [];
  }

  /** The file's suggestion diagnostics. */
  async suggestions(file: string): Promise<ServerDiagnostic[]> {
    const response = await this.request<ServerDiagnostic[]>("suggestionDiagnosticsSync", { file });
    if (!response.success) throw new Error(`suggestionDiagnosticsSync failed: ${response.message}`);
    return response.body ?? [];
  }

  /** Stops the process: `exit`, then a kill if it has not gone within two seconds. */
  async close(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => this.child.once("exit", () => resolve()));
    this.send("exit", {});
    const timer = setTimeout(() => this.child.kill(), 2000);
    await exited;
    clearTimeout(timer);
  }

  private send(command: string, args: unknown): number {
    this.seq += 1;
    this.child.stdin?.write(`${JSON.stringify({ seq: this.seq, type: "request", command, arguments: args })}\n`);
    return this.seq;
  }

  private receive(chunk: Buffer): void {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    for (;;) {
      const headerEnd = this.buffer.indexOf("\r\n\r\n");
      if (headerEnd < 0) return;
      const length = Number(/Content-Length: (\d+)/.exec(this.buffer.subarray(0, headerEnd).toString())?.[1]);
      const bodyStart = headerEnd + 4;
      if (this.buffer.length < bodyStart + length) return;
      const message = JSON.parse(this.buffer.subarray(bodyStart, bodyStart + length).toString()) as Message;
      this.buffer = this.buffer.subarray(bodyStart + length);
      if (message.type === "response" && message.request_seq !== undefined) {
        this.waiting.get(message.request_seq)?.resolve(message);
        this.waiting.delete(message.request_seq);
      }
    }
  }
}
