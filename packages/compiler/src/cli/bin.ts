#!/usr/bin/env node
// The `toolwright` executable: runs the dispatcher on the process's arguments and streams.
import { main } from "./index.js";

process.exitCode = await main(process.argv.slice(2), {
  cwd: process.cwd(),
  tty: { out: process.stdout.isTTY === true, err: process.stderr.isTTY === true },
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
});
