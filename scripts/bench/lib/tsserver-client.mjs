/**
 * A real `tsserver` process spoken to over stdio, for the language-service plugin's tests
 * and its latency benchmark: requests are JSON lines, responses come back framed by
 * `Content-Length` headers (a byte count). Types: tsserver-client.d.mts.
 */
import { spawn } from "node:child_process";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

export class TsServer {
  #child;
  #buffer = Buffer.alloc(0);
  #seq = 0;
  #waiting = new Map();
  #stderr = "";

  constructor(probeLocation, tsserverPath = require.resolve("typescript/lib/tsserver.js")) {
    this.#child = spawn(
      process.execPath,
      [tsserverPath, "--pluginProbeLocations", probeLocation, "--disableAutomaticTypingAcquisition"],
      { stdio: ["pipe", "pipe", "pipe"], env: { ...process.env, TSS_LOG: process.env.TOOLWRIGHT_TSS_LOG ?? "" } },
    );
    this.#child.stdout.on("data", (chunk) => this.#receive(chunk));
    this.#child.stderr.on("data", (chunk) => {
      this.#stderr += chunk.toString();
    });
    this.#child.on("exit", (code) => {
      for (const { reject } of this.#waiting.values()) reject(new Error(`tsserver exited (${code}): ${this.#stderr}`));
      this.#waiting.clear();
    });
  }

  get pid() {
    return this.#child.pid;
  }

  request(command, args) {
    const seq = this.#send(command, args);
    return new Promise((resolve, reject) => this.#waiting.set(seq, { resolve, reject }));
  }

  notify(command, args) {
    this.#send(command, args);
  }

  open(file) {
    this.notify("open", { file });
  }

  async diagnostics(file) {
    const response = await this.request("semanticDiagnosticsSync", { file });
    if (!response.success) throw new Error(`semanticDiagnosticsSync failed: ${response.message}`);
    return response.body ?? [];
  }

  async suggestions(file) {
    const response = await this.request("suggestionDiagnosticsSync", { file });
    if (!response.success) throw new Error(`suggestionDiagnosticsSync failed: ${response.message}`);
    return response.body ?? [];
  }

  async close() {
    if (this.#child.exitCode !== null) return;
    const exited = new Promise((resolve) => this.#child.once("exit", resolve));
    this.#send("exit", {});
    // tsserver leaves on "exit"; the kill is only for one that hangs.
    const timer = setTimeout(() => this.#child.kill(), 2000);
    await exited;
    clearTimeout(timer);
  }

  #send(command, args) {
    this.#seq += 1;
    this.#child.stdin.write(`${JSON.stringify({ seq: this.#seq, type: "request", command, arguments: args })}\n`);
    return this.#seq;
  }

  #receive(chunk) {
    this.#buffer = Buffer.concat([this.#buffer, chunk]);
    for (;;) {
      const headerEnd = this.#buffer.indexOf("\r\n\r\n");
      if (headerEnd < 0) return;
      const length = Number(/Content-Length: (\d+)/.exec(this.#buffer.subarray(0, headerEnd).toString())?.[1]);
      const bodyStart = headerEnd + 4;
      if (this.#buffer.length < bodyStart + length) return;
      const message = JSON.parse(this.#buffer.subarray(bodyStart, bodyStart + length).toString());
      this.#buffer = this.#buffer.subarray(bodyStart + length);
      if (message.type === "response" && message.request_seq !== undefined) {
        this.#waiting.get(message.request_seq)?.resolve(message);
        this.#waiting.delete(message.request_seq);
      }
    }
  }
}
