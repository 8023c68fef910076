import { parseOptions, projectOption, typescriptOption } from "./args.js";
import type { Command } from "./command.js";

const usage = `usage: toolwright lsp [--stdio] [-p tsconfig.json] [--typescript <dir>]

A language server on stdio for editors on TypeScript 7, run beside TypeScript's own:
toolwright's diagnostics, the tool on hover at a tool site, and quick fixes (a @param
stub, an inferred annotation), as the tsserver plugin gives them on TypeScript 5.
It answers from the project's TypeScript 7 through its API (docs/editor.md).
  --stdio        speak LSP on stdin/stdout (the default and only transport)
  -p, --project  the tsconfig.json to serve (default: the nearest one to the workspace folder)
  --typescript   the folder of a TypeScript 7 package to use instead of the project's`;

/** `toolwright lsp`: the language server for TypeScript 7 editors. */
export const lsp: Command = {
  summary: "language server for editors on TypeScript 7 (diagnostics, tool hover, quick fixes)",
  usage,
  async run(args, io) {
    const values = parseOptions(args, { ...projectOption, ...typescriptOption, stdio: { type: "boolean" } });
    const { serveLanguageServer } = await import("../lsp/server.js");
    const connection = serveLanguageServer(process.stdin, process.stdout, {
      cwd: io.cwd,
      ...(values.project !== undefined ? { tsconfig: values.project } : {}),
      ...(values.typescript !== undefined ? { typescript: values.typescript } : {}),
    });
    // The server runs until the editor says `exit` (the library ends the process then) or closes stdin.
    return new Promise<number>((resolve) => {
      connection.onExit(() => resolve(0));
      process.stdin.on("end", () => resolve(0));
    });
  },
};
