// The child process of a cold `toolwright gen` or `build` (see ts7-child-run.ts): runs the
// command in a Node started with one V8 background thread, and sends the parent its output
// and exit code.

import { runBuild } from "./build.js";
import type { CommandIO } from "./command.js";
import { runGen } from "./gen.js";
import type { ChildReply, ChildRequest } from "./ts7-child-run.js";

function send(message: ChildReply): Promise<void> {
  return new Promise((done) => process.send?.(message, () => done()));
}

process.once("message", async (request: ChildRequest) => {
  const io: CommandIO = {
    cwd: request.cwd,
    ...(request.tty ? { tty: request.tty } : {}),
    out: (text) => void send({ out: text }),
    err: (text) => void send({ err: text }),
  };
  try {
    const run = request.command === "gen" ? runGen : runBuild;
    await send({ code: await run(request.args, io, "child") });
  } catch (error) {
    await send({ error: error instanceof Error ? error.message : String(error) });
  }
  process.disconnect();
});
