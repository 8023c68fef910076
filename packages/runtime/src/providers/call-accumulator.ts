import type { ToolCall } from "../model/messages.js";
import type { ModelStreamEvent } from "../model/model.js";
import { synthesizeCallId } from "./ids.js";

/** One streamed piece of a tool call, as any provider sends it. */
export interface CallFragment {
  readonly id?: string | undefined;
  readonly name?: string | undefined;
  /** A piece of the arguments' JSON text, or (some local servers) the whole arguments object. */
  readonly arguments?: string | Readonly<Record<string, unknown>> | null | undefined;
  readonly providerData?: unknown;
}

interface Entry {
  index: number;
  id: string;
  name: string;
  text: string;
  object: Readonly<Record<string, unknown>> | undefined;
  started: boolean;
  pending: string[];
  providerData: unknown;
}

/**
 * Assembles streamed tool calls and emits start/delta/end events. Calls are keyed by a
 * provider-chosen key (index, item id); empty names are ignored, missing ids made up, and
 * `start` waits until the name is known, holding back argument pieces until then.
 */
export class CallAccumulator {
  private readonly entries: Entry[] = [];
  private readonly byKey = new Map<string, Entry>();

  /** True when a call is open under `key`. */
  has(key: string): boolean {
    return this.byKey.has(key);
  }

  /** Adds a fragment to the call under `key` (opening it if new) and returns the events it makes. */
  add(key: string, fragment: CallFragment): ModelStreamEvent[] {
    let entry = this.byKey.get(key);
    if (entry === undefined) {
      entry = {
        index: -1,
        id: "",
        name: "",
        text: "",
        object: undefined,
        started: false,
        pending: [],
        providerData: undefined,
      };
      this.entries.push(entry);
      this.byKey.set(key, entry);
    }
    return this.apply(entry, fragment);
  }

  /** Points another key at an existing call (e.g. an item id learned after an output index). */
  alias(key: string, existing: string): void {
    const entry = this.byKey.get(existing);
    if (entry) this.byKey.set(key, entry);
  }

  private apply(entry: Entry, fragment: CallFragment): ModelStreamEvent[] {
    const events: ModelStreamEvent[] = [];
    if (fragment.id) entry.id ||= fragment.id;
    if (fragment.name) entry.name ||= fragment.name;
    if (fragment.providerData !== undefined) entry.providerData = fragment.providerData;
    const args = fragment.arguments;
    if (typeof args === "string" && args.length > 0) {
      entry.text += args;
      entry.pending.push(args);
    } else if (typeof args === "object" && args !== null) {
      entry.object = args;
      entry.pending.push(JSON.stringify(args));
    }
    if (!entry.started && entry.name) {
      entry.id ||= synthesizeCallId();
      entry.started = true;
      // Indexes count started calls only, so they match positions in the finished turn's toolCalls.
      entry.index = this.entries.filter((e) => e.started).length - 1;
      events.push({ type: "tool-call-start", index: entry.index, id: entry.id, name: entry.name });
    }
    if (entry.started) {
      for (const delta of entry.pending.splice(0)) events.push({ type: "tool-call-delta", index: entry.index, delta });
    }
    return events;
  }

  /** The calls as the transcript keeps them, in order: arguments exactly as assembled; calls that never got a name are dropped. */
  calls(): ToolCall[] {
    return this.entries
      .filter((e) => e.started)
      .map((e) => ({
        id: e.id,
        name: e.name,
        arguments: e.object ?? e.text,
        ...(e.providerData === undefined ? {} : { providerData: e.providerData }),
      }));
  }
}
