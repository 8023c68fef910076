import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { RunStateError } from "../errors.js";
import type { PendingCall, RunSnapshot } from "./snapshot.js";
import { stableStringify } from "./stable-json.js";
import type { Interruption } from "./types.js";

/** The `format` field of every serialized run state. */
export const RUN_STATE_FORMAT = "toolwright.run-state";
/** The version this toolwright writes; states of older versions keep loading (guarded by fixtures). */
export const RUN_STATE_VERSION = 1;

/** What a run state needs from its agent: identity, and argument validation for edited approvals. */
export interface StateOwner {
  readonly name: string;
  /** Sorted tool names: a state is only resumed by an agent with the same tools. */
  readonly toolNames: readonly string[];
  readonly stateSecret?: string | undefined;
  /** Validates edited arguments for `toolName`; throws the tool's `ToolArgumentError` when they do not fit. */
  validateArgs(toolName: string, args: unknown): Readonly<Record<string, unknown>>;
}

/** The JSON form of a {@link RunState}. */
export interface RunStateJson {
  readonly format: typeof RUN_STATE_FORMAT;
  readonly version: number;
  readonly agent: { readonly name: string; readonly tools: readonly string[] };
  readonly snapshot: RunSnapshot;
  /** `sha256:<hex>` of the rest, or `hmac-sha256:<hex>` when the agent has a `stateSecret`. */
  readonly integrity: string;
}

/** Options of {@link RunState.fromJSON}. */
export interface RunStateLoadOptions {
  /** The HMAC secret the state was signed with; defaults to the agent's `stateSecret`. */
  readonly secret?: string;
}

/**
 * A paused run: the calls waiting for a person, and everything needed to go on, in
 * this process or another. Decide each interruption, then pass the state to `agent.run`.
 *
 * @example
 * ```ts
 * const result = await agent.run("Cancel order A-771");
 * if (result.state) {
 *   for (const i of result.interruptions) result.state.approve(i.callId);
 *   await writeFile("state.json", result.state.toString());
 * }
 * // later, anywhere:
 * const state = RunState.fromJSON(agent, await readFile("state.json", "utf8"));
 * const done = await agent.run(state);
 * ```
 */
export class RunState {
  #consumed = false;

  /** @internal Made by the run loop; use {@link RunState.fromJSON} to load one. */
  constructor(
    readonly owner: StateOwner,
    /** @internal */
    readonly snapshot: RunSnapshot,
  ) {}

  /** The calls still waiting for a decision. */
  get interruptions(): Interruption[] {
    const out: Interruption[] = [];
    for (const p of this.snapshot.pending ?? []) {
      if (p.approval?.status !== "pending") continue;
      const { args, reason } = p.approval;
      out.push({ callId: p.call.id, toolName: p.call.name, args, ...(reason === undefined ? {} : { reason }) });
    }
    return out;
  }

  /** The run's id, the same before and after every resume. */
  get runId(): string {
    return this.snapshot.runId;
  }

  /**
   * Lets a call run, with its arguments as proposed or with `args` edited by the person;
   * edited arguments are validated against the tool's schema now (and again when they run).
   */
  approve(callId: string, options: { readonly args?: Readonly<Record<string, unknown>> } = {}): this {
    const pending = this.#waiting(callId);
    const approval = pending.approval as { args: Readonly<Record<string, unknown>> };
    const args = options.args === undefined ? approval.args : this.owner.validateArgs(pending.call.name, options.args);
    pending.approval = { status: "approved", args };
    return this;
  }

  /** Refuses a call; the model reads `message` as the call's `rejected` result. */
  reject(callId: string, message = "A person declined this call."): this {
    this.#waiting(callId).approval = { status: "rejected", message };
    return this;
  }

  /** The JSON form: plain data, with an integrity digest (an HMAC when the agent has a `stateSecret`). */
  toJSON(): RunStateJson {
    const body = {
      format: RUN_STATE_FORMAT,
      version: RUN_STATE_VERSION,
      agent: { name: this.owner.name, tools: this.owner.toolNames },
      snapshot: this.snapshot,
    } as const;
    return { ...body, integrity: integrityOf(body, this.owner.stateSecret) };
  }

  /** The JSON form as a string, ready to store. */
  toString(): string {
    return JSON.stringify(this);
  }

  /**
   * Loads a state saved with `toString()`/`toJSON()` for `agent`. Refuses (with a
   * {@link RunStateError}) a state that is malformed, was changed after it was saved,
   * is unsigned when a secret is expected (or signed with another), or belongs to
   * another agent.
   */
  static fromJSON(agent: StateOwner, json: string | RunStateJson, options: RunStateLoadOptions = {}): RunState {
    const data = parse(json);
    const secret = options.secret ?? agent.stateSecret;
    const { integrity, ...body } = data;
    const expected = integrityOf(body, secret);
    if (typeof integrity !== "string" || !sameText(integrity, expected)) {
      const signed = typeof integrity === "string" && integrity.startsWith("hmac-sha256:");
      throw new RunStateError(
        signed && !secret
          ? "run state is signed but no secret was given: pass RunState.fromJSON(agent, json, { secret }) or set the agent's stateSecret."
          : !signed && secret
            ? "run state is not signed but a secret is expected: it was saved by an agent without stateSecret, or altered."
            : "run state failed its integrity check: it was changed after it was saved (or signed with another secret). Refusing to resume it.",
      );
    }
    const migrated = data;
    if (migrated.agent.name !== agent.name) {
      throw new RunStateError(
        `run state belongs to agent "${migrated.agent.name}", not "${agent.name}": resume it with the agent that paused it.`,
      );
    }
    if (migrated.agent.tools.join(",") !== agent.toolNames.join(",")) {
      throw new RunStateError(
        `run state of agent "${agent.name}" was saved with tools [${migrated.agent.tools.join(", ")}] but this agent has ` +
          `[${agent.toolNames.join(", ")}]: resume it with the same tools.`,
      );
    }
    return new RunState(agent, migrated.snapshot);
  }

  /** @internal Hands the snapshot to one resumed run; a state is resumed at most once in a process. */
  take(owner: StateOwner): RunSnapshot {
    if (owner.name !== this.owner.name) {
      throw new RunStateError(`run state belongs to agent "${this.owner.name}", not "${owner.name}".`);
    }
    if (this.#consumed) {
      throw new RunStateError(
        "this run state was already resumed; resume the state of the latest result (result.state) instead, so no call runs twice.",
      );
    }
    this.#consumed = true;
    return this.snapshot;
  }

  #waiting(callId: string): PendingCall {
    const pending = this.snapshot.pending?.find((p) => p.call.id === callId);
    if (pending?.approval?.status !== "pending") {
      const ids = this.interruptions.map((i) => i.callId);
      throw new RunStateError(
        `no call "${callId}" is waiting for approval; waiting: ${ids.length ? ids.join(", ") : "none"}.`,
      );
    }
    return pending;
  }
}

function integrityOf(body: object, secret: string | undefined): string {
  const text = stableStringify(body);
  return secret
    ? `hmac-sha256:${createHmac("sha256", secret).update(text).digest("hex")}`
    : `sha256:${createHash("sha256").update(text).digest("hex")}`;
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function parse(json: string | RunStateJson): RunStateJson {
  let data: unknown = json;
  if (typeof json === "string") {
    try {
      data = JSON.parse(json);
    } catch (error) {
      throw new RunStateError(`run state is not JSON (${(error as Error).message}); pass what state.toString() wrote.`);
    }
  }
  const d = data as Partial<RunStateJson> | null;
  if (!d || typeof d !== "object" || d.format !== RUN_STATE_FORMAT) {
    throw new RunStateError(`not a toolwright run state: expected "format": "${RUN_STATE_FORMAT}".`);
  }
  if (typeof d.version !== "number" || d.version > RUN_STATE_VERSION) {
    throw new RunStateError(
      `run state version ${String(d.version)} is newer than this toolwright reads (${RUN_STATE_VERSION}): upgrade toolwright.`,
    );
  }
  if (!d.agent || !d.snapshot || !Array.isArray(d.snapshot.messages)) {
    throw new RunStateError("run state is missing its agent or snapshot.");
  }
  return d as RunStateJson;
}
