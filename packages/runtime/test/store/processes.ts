import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { expect } from "vitest";
import { Agent } from "../../src/index.js";
import { type RunStore, StoreUnavailableError, submitRun } from "../../src/store/index.js";
import { FakeModel } from "../../src/testing/index.js";
import { stringTool } from "../agent/helpers.js";

/** The worker and approver program of the multi-process tests (fixtures/durable-process.mjs). */
export const DURABLE_PROCESS = fileURLToPath(new URL("./fixtures/durable-process.mjs", import.meta.url));

/** One child process, its output kept. */
export interface Child {
  readonly process: ChildProcess;
  readonly name: string;
  output(): string;
  /** Calls `seen` with each stdout line matching `pattern`. */
  onLine(pattern: RegExp, seen: (match: RegExpExecArray) => void): void;
}

/** The processes of one test: started with `start`, all stopped (SIGTERM) and waited for by `stop`. */
export class Fleet {
  readonly children: Child[] = [];
  /** Those the test killed (or is stopping): their exit is no failure. */
  readonly #ended = new Set<ChildProcess>();
  #dead: (error: Error) => void = () => {};
  /** Rejects as soon as a process exits that the test did not stop: a worker that crashed. */
  readonly died = new Promise<never>((_, reject) => {
    this.#dead = reject;
  });

  constructor() {
    this.died.catch(() => {});
  }

  /** Waits for `work`, failing at once if a process dies meanwhile. */
  watch<T>(work: Promise<T>): Promise<T> {
    return Promise.race([work, this.died]);
  }

  /** Kills one process on purpose (SIGKILL, a worker's death under test). */
  kill(child: Child): void {
    this.#ended.add(child.process);
    child.process.kill("SIGKILL");
  }

  start(name: string, args: readonly string[], env: Record<string, string> = {}): Child {
    const child = spawn(process.execPath, [DURABLE_PROCESS, ...args], {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, ...env },
    });
    let output = "";
    let partial = "";
    const watchers: Array<[RegExp, (match: RegExpExecArray) => void]> = [];
    child.stdout?.on("data", (d: Buffer) => {
      output += d;
      const lines = (partial + d).split("\n");
      partial = lines.pop() ?? "";
      for (const line of lines)
        for (const [pattern, seen] of watchers) {
          const match = pattern.exec(line);
          if (match) seen(match);
        }
    });
    child.stderr?.on("data", (d: Buffer) => {
      output += d;
    });
    child.once("exit", (code, signal) => {
      if (!this.#ended.has(child)) this.#dead(new Error(`${name} died (${signal ?? `exit ${code}`}):\n${output}`));
    });
    const made: Child = {
      process: child,
      name,
      output: () => output,
      onLine: (pattern, seen) => watchers.push([pattern, seen]),
    };
    this.children.push(made);
    return made;
  }

  /** SIGTERMs every process still running and waits until all have exited. */
  async stop(): Promise<void> {
    for (const { process: p } of this.children) {
      this.#ended.add(p);
      if (p.exitCode === null && p.signalCode === null) p.kill("SIGTERM");
    }
    await Promise.all(this.children.map((c) => exited(c.process)));
  }
}

export function exited(child: ChildProcess): Promise<void> {
  return new Promise<void>((resolve) =>
    child.exitCode !== null || child.signalCode ? resolve() : child.once("exit", () => resolve()),
  );
}

/** Queues `count` runs `run-<i>` for the workers' "refunds" agent (same name, same tools). */
export async function queueRefunds(store: RunStore, count: number): Promise<void> {
  const stub = (name: string) => stringTool(name, () => undefined);
  const queuer = new Agent({ name: "refunds", model: FakeModel.script([]), tools: [stub("lookup"), stub("refund")] });
  for (let i = 0; i < count; i++) await submitRun(queuer, `refund order ${i}`, { store, runId: `run-${i}` });
}

/**
 * Waits until `count` runs are completed; a failed run fails the test at once. A database
 * that is away (a restart under test) is waited out.
 */
export async function allCompleted(store: RunStore, count: number): Promise<void> {
  for (;;) {
    try {
      const completed = await store.list({ status: "completed", limit: count + 1 });
      if (completed.length === count) return;
      const failed = await store.list({ status: "failed", limit: 1 });
      if (failed.length) throw new Error(`run ${failed[0]?.runId} failed: ${failed[0]?.error}`);
    } catch (error) {
      if (!(error instanceof StoreUnavailableError)) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Every refund body that ran, by idempotency key: none twice, one per run. */
export function checkLedger(ledger: string, runs: number): void {
  const lines = readFileSync(ledger, "utf8").split("\n").filter(Boolean);
  const twice = lines.filter((key, i) => lines.indexOf(key) !== i);
  expect(twice, "refund bodies that ran twice").toEqual([]);
  expect(new Set(lines.map((key) => key.split(":")[0])).size).toBe(runs);
}

/**
 * Every run completed, and its model was told the truth of each call: `ok`, or `rejected`
 * when a person said the refund had gone through; never that a call failed.
 */
export async function checkRuns(store: RunStore, runs: number): Promise<Map<string, string>> {
  const all = await store.list({ limit: runs + 1 });
  expect(all).toHaveLength(runs);
  for (const run of all) {
    expect(run.status).toBe("completed");
    expect(run.output).toMatch(/^Done: lookup=ok, refund=(ok|rejected)$/);
  }
  return new Map(all.map((r) => [r.runId, r.output as string]));
}

/** The approver's last line: how many calls of unknown outcome it decided, and whose. */
export function approverReport(approver: Child): { unknown: number; unknownRuns: string[] } {
  const lines = approver.output().trim().split("\n");
  return JSON.parse(lines.findLast((line) => line.startsWith("{")) ?? "{}");
}
