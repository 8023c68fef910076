import { writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { relative, resolve } from "node:path";
import { renderRunPage } from "toolwright/trace";
import { parseOptions } from "./args.js";
import { type Command, type CommandIO, UsageError } from "./command.js";
import { readRunFile } from "./run-file.js";

const usage = `usage: toolwright view <run.json> [--out <file.html>] [--serve [--port <n>]]

Writes one self-contained HTML page showing a saved run: a timeline of turns and calls
with their durations, token and cost bars, every call with expandable arguments and result,
and the messages. The page loads nothing from anywhere.
  --out    where to write the page (default: the run's file name with .html)
  --serve  serve the page on http://127.0.0.1 instead of writing it, until stopped
  --port   the port to serve on (default: any free port)`;

/** Serves the page on the loopback interface until the process is told to stop. */
async function serve(page: string, port: number, shown: string, io: CommandIO): Promise<number> {
  const server = createServer((req, res) => {
    if (req.method !== "GET" || (req.url !== "/" && req.url !== "/index.html")) {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found: the run is at /\n");
      return;
    }
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(page);
  });
  await new Promise<void>((ready, fail) => {
    server.once("error", fail);
    server.listen(port, "127.0.0.1", ready);
  });
  const { port: bound } = server.address() as AddressInfo;
  io.out(`serving ${shown} on http://127.0.0.1:${bound}/ (Ctrl+C to stop)\n`);
  await new Promise<void>((stop) => {
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
  server.closeAllConnections();
  await new Promise<void>((closed) => server.close(() => closed()));
  return 0;
}

/** `toolwright view <run.json>`: one HTML page for a saved run, written or served. */
export const view: Command = {
  summary: "write (or --serve on 127.0.0.1) one self-contained HTML page showing a saved run",
  usage,
  async run(args, io) {
    const [file, ...rest] = args;
    const values = parseOptions(rest, {
      out: { type: "string" },
      serve: { type: "boolean" },
      port: { type: "string" },
    });
    if (values.port !== undefined && !values.serve) throw new UsageError("--port goes with --serve.");
    if (values.out !== undefined && values.serve) throw new UsageError("--out and --serve exclude each other.");
    const port = values.port === undefined ? 0 : Number(values.port);
    if (!(Number.isInteger(port) && port >= 0 && port < 65536)) {
      throw new UsageError(`--port takes a port number, got '${values.port}'.`);
    }
    const { run, path, shown } = readRunFile(io.cwd, file, "toolwright view run.json");
    const page = renderRunPage(run);
    if (values.serve) return serve(page, port, shown, io);
    const out = values.out ? resolve(io.cwd, values.out) : path.replace(/(\.json)?$/i, ".html");
    writeFileSync(out, page);
    const calls = run.steps.reduce((n, s) => n + s.calls.length, 0);
    io.out(`wrote ${relative(io.cwd, out) || out} (${run.steps.length} turns, ${calls} calls)\n`);
    return 0;
  },
};
