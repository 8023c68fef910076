#!/usr/bin/env node
// The `toolwright` executable: runs the dispatcher on the process's arguments and streams.
// main.js, not index.js: the commands load when run, so `toolwright trace` starts without TypeScript.
import { enableCompileCache } from "./compile-cache.js";
import { main } from "./main.js";

// Before the command loads: its modules, and TypeScript's, come from the cache on the next run.
enableCompileCache();

// No top-level await: the package's modules are bundled with chunks other entries share.
void main(process.argv.slice(2), {
  cwd: process.cwd(),
  tty: { out: process.stdout.isTTY === true, err: process.stderr.isTTY === true },
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
}).then((code) => {
  process.exitCode = code;
});
