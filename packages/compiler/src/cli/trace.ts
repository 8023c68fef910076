import { formatTrace } from "toolwright/trace";
import { parseOptions } from "./args.js";
import { type Command, UsageError } from "./command.js";
import { readRunFile } from "./run-file.js";

const usage = `usage: toolwright trace <run.json> [--width <n>]

Prints a saved run as a tree: each model turn (model, duration, tokens, cost), its calls
with arguments, outcome, duration, retries, repairs and approvals, then the answer or the
calls waiting for a person. Reads a run result saved with JSON.stringify(result) or a
paused run's state (state.toString()). Colour only on a terminal (and never with NO_COLOR).
  --width  longest text shown on one line before it is cut (default 120)`;

/** `toolwright trace <run.json>`: a saved run as a readable tree. */
export const trace: Command = {
  summary: "print a saved run (RunResult JSON or run state) as a tree of turns and calls",
  usage,
  async run(args, io) {
    const [file, ...rest] = args;
    const values = parseOptions(rest, { width: { type: "string" } });
    const width = values.width === undefined ? undefined : Number(values.width);
    if (width !== undefined && !(Number.isInteger(width) && width >= 20)) {
      throw new UsageError(`--width takes a whole number of at least 20, got '${values.width}'.`);
    }
    const { run } = readRunFile(io.cwd, file, "toolwright trace run.json");
    const color = io.tty?.out === true && !process.env.NO_COLOR;
    io.out(formatTrace(run, { color, ...(width === undefined ? {} : { width }) }));
    return 0;
  },
};
