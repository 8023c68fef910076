import { createRequire } from "node:module";
import { ANSWER_KEY } from "./answer.js";

// partial-json (CommonJS) is required on the first streamed answer, not imported: only
// runs that stream a typed answer ever load it.
const load = createRequire(import.meta.url);
let parser: typeof import("partial-json") | undefined;

/** An answer's type as it streams: every member optional, dates still their strings. */
export type PartialOutput<T> = T extends Date
  ? string
  : T extends readonly (infer Item)[]
    ? PartialOutput<Item>[]
    : T extends object
      ? { [K in keyof T]?: PartialOutput<T[K]> }
      : T;

const FENCE = /^\s*```[\w-]*\s*/;

/**
 * The answer as its JSON streams in: each piece of text appended, the value read so far
 * returned when it changed. Strings, arrays and objects show as far as they arrived; a
 * number, `true`, `false` or `null` only once it is whole (a half number is another number).
 */
export class PartialAnswer {
  #text = "";
  #shown = "";

  constructor(
    /** Whether the answer sits in `{ answer }` on the wire. */
    private readonly wrapped: boolean,
  ) {}

  /** Starts over: the provider is sending the turn again. */
  reset(): void {
    this.#text = "";
    this.#shown = "";
  }

  /** Adds a piece of the answer's text; the partial value when it differs from the last one given, else `undefined`. */
  push(delta: string): unknown {
    this.#text += delta;
    parser ??= load("partial-json") as typeof import("partial-json");
    const { Allow } = parser;
    let value: unknown;
    try {
      value = parser.parse(this.#text.replace(FENCE, ""), Allow.STR | Allow.ARR | Allow.OBJ);
    } catch {
      return undefined; // nothing readable yet (or not JSON at all: the final check says so)
    }
    if (this.wrapped) {
      if (typeof value !== "object" || value === null || !(ANSWER_KEY in value)) return undefined;
      value = (value as Record<string, unknown>)[ANSWER_KEY];
    }
    const text = JSON.stringify(value);
    if (value === undefined || text === this.#shown) return undefined;
    this.#shown = text;
    return value;
  }
}
