import type { CommandIO } from "./command.js";

/** A status line for long work: rewritten in place on a terminal, silent anywhere else. */
export interface Progress {
  /** Says what is happening now. */
  update(text: string): void;
  /** Clears the line, before the command's own output. */
  done(): void;
}

const SILENT: Progress = { update() {}, done() {} };

/** Redraws at most this often, so progress costs nothing next to the work it reports. */
const REDRAW_MS = 80;

/**
 * The progress line of a command on standard error: shown only when standard error is a
 * terminal, so logs, pipes and CI output stay exactly as they were.
 */
export function progressFor(io: CommandIO, command: string): Progress {
  if (!io.tty?.err) return SILENT;
  let shown = false;
  let last = 0;
  return {
    update(text) {
      const now = Date.now();
      if (shown && now - last < REDRAW_MS) return;
      last = now;
      shown = true;
      io.err(`\r\u001b[2K${command}: ${text}`);
    },
    done() {
      if (shown) io.err("\r\u001b[2K");
      shown = false;
    },
  };
}

/** `12/340 files`. */
export function countOf(done: number, total: number, what: string): string {
  return `${done}/${total} ${what}`;
}
