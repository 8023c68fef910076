import { stableStringify } from "./stable-json.js";

/** What to do when the model repeats an identical call. */
export interface RepeatedCallPolicy {
  /** The number of identical calls in a row that trips the policy (default 3). */
  readonly limit?: number;
  /**
   * `"tell_model"` (default): the call does not run; the model reads that it is repeating itself.
   * `"fail"`: the run ends with a `RepeatedCallError`.
   */
  readonly action?: "tell_model" | "fail";
}

/** The detector's state, kept in the run state so a resumed run counts on. */
export interface RepeatState {
  key: string;
  count: number;
}

/**
 * Counts identical calls (same tool, same validated arguments) in a row, across
 * turns. Returns how many times running this call has now been made.
 */
export function countRepeat(state: RepeatState, toolName: string, args: Readonly<Record<string, unknown>>): number {
  const key = `${toolName}\u0000${stableStringify(args)}`;
  if (key === state.key) state.count += 1;
  else {
    state.key = key;
    state.count = 1;
  }
  return state.count;
}

/** The message the model reads when it repeats itself. */
export function repeatMessage(toolName: string, count: number): string {
  return (
    `Not run: you called ${toolName} with these same arguments ${count} times in a row and the result will not change. ` +
    `Use the earlier result, change the arguments, or answer the user.`
  );
}
