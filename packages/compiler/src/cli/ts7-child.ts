// The child process of a cold `toolwright gen` or `build` (see ts7-child-run.ts), a Node
// started with one V8 background thread: derives a `gen`'s project, sending each file's result
// as it comes (the parent renders and writes the module), or runs a whole `build`, sending
// its output and exit code.

import { runBuild } from "./build.js";
import type { CommandIO } from "./command.js";
import { enableCompileCache } from "./compile-cache.js";
import { deriveForParent } from "./gen.js";
import { type FileResult, storedResult } from "./gen-cache.js";
import type { ChildReply, ChildRequest } from "./ts7-child-run.js";

// The command's modules are loaded by now; TypeScript's API client is loaded when the derivation opens it.
enableCompileCache();

function send(message: ChildReply): Promise<void> {
  return new Promise((done) => process.send?.(message, () => done()));
}

// A child whose parent is gone has no one to answer: it stops at its next turn of the event
// loop (a derivation over the sync API runs to its end first) rather than write on.
process.once("disconnect", () => process.exit(1));

process.once("message", async (request: ChildRequest) => {
  const io: CommandIO = {
    cwd: request.cwd,
    ...(request.tty ? { tty: request.tty } : {}),
    out: (text) => void send({ out: text }),
    err: (text) => void send({ err: text }),
  };
  try {
    if (request.command === "gen") {
      const onResult = (file: string, result: FileResult) =>
        void send({ result: { file, result: storedResult(result) } });
      const { files, configDiagnostics, cost } = await deriveForParent(request.args, io, onResult);
      const config = storedResult({ tools: [], schemas: [], diagnostics: configDiagnostics }).diagnostics;
      await send({ derived: { files, config, ...(cost ? { cost } : {}) } });
    } else {
      await send({ code: await runBuild(request.args, io, "child") });
    }
  } catch (error) {
    await send({ error: error instanceof Error ? error.message : String(error) });
  }
  // The run is over (its files written, its API process ended) and the parent, which stops
  // waiting on this process once answered, has the reply: nothing is left to wind down.
  process.exit(0);
});
