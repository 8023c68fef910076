import { type Command, type CommandIO, UsageError } from "./command.js";

/**
 * Every subcommand of the `toolwright` CLI, by name (one file each), loaded when it runs:
 * `toolwright trace` or `view` reads a saved run and never loads TypeScript, which the
 * build commands need.
 */
const commands: Readonly<Record<string, () => Promise<Command>>> = {
  build: async () => (await import("./build.js")).build,
  gen: async () => (await import("./gen.js")).gen,
  print: async () => (await import("./print.js")).print,
  check: async () => (await import("./check.js")).check,
  mcp: async () => (await import("./mcp.js")).mcp,
  lsp: async () => (await import("./lsp.js")).lsp,
  trace: async () => (await import("./trace.js")).trace,
  view: async () => (await import("./view.js")).view,
};

async function help(): Promise<string> {
  const names = Object.keys(commands);
  const loaded = await Promise.all(Object.values(commands).map((load) => load()));
  const width = Math.max(...names.map((n) => n.length));
  const lines = names.map((name, i) => `  ${name.padEnd(width)}  ${loaded[i]?.summary}`);
  return `usage: toolwright <command> [options]\n\ncommands:\n${lines.join("\n")}\n\nRun 'toolwright <command> --help' for a command's options.\n`;
}

/**
 * Runs the `toolwright` CLI on an argument list and resolves to its exit code.
 *
 * @example
 * ```ts
 * process.exitCode = await main(["check", "-p", "tsconfig.json"], { cwd: process.cwd(), out: ..., err: ... });
 * ```
 */
export async function main(argv: readonly string[], io: CommandIO): Promise<number> {
  const [name, ...args] = argv;
  if (!name || name === "--help" || name === "-h") {
    io.out(await help());
    return name ? 0 : 2;
  }
  const load = Object.hasOwn(commands, name) ? commands[name] : undefined;
  if (!load) {
    io.err(`toolwright: unknown command '${name}'.\n\n${await help()}`);
    return 2;
  }
  const command = await load();
  if (args.includes("--help") || args.includes("-h")) {
    io.out(`${command.usage}\n`);
    return 0;
  }
  try {
    return await command.run(args, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`toolwright ${name}: ${error.message}\n\n${command.usage}\n`);
      return 2;
    }
    io.err(`toolwright ${name}: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}
