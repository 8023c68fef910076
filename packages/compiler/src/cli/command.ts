/** Where a command writes; the real process streams, or buffers in tests. */
export interface CommandIO {
  readonly cwd: string;
  /** Which streams are terminals: colour and progress lines only go there. */
  readonly tty?: { readonly out: boolean; readonly err: boolean };
  out(text: string): void;
  err(text: string): void;
}

/** One `toolwright <name>` subcommand, in a file of its own. */
export interface Command {
  /** One line for `toolwright --help`. */
  readonly summary: string;
  /** The full usage text for `toolwright <name> --help`. */
  readonly usage: string;
  /** Runs the command; resolves to the process exit code. */
  run(args: readonly string[], io: CommandIO): Promise<number>;
}

/** Thrown for a wrong command line: the dispatcher prints it with the usage and exits 2. */
export class UsageError extends Error {
  override name = "UsageError";
}
