import { build } from "./build.js";
import { check } from "./check.js";
import { type Command, type CommandIO, UsageError } from "./command.js";
import { gen } from "./gen.js";
import { mcp } from "./mcp.js";
import { print } from "./print.js";
import { trace } from "./trace.js";
import { view } from "./view.js";

/** Every subcommand of the `toolwright` CLI, by name (one file each). */
export const commands: Readonly<Record<string, Command>> = { build, gen, print, check, mcp, trace, view };

function help(): string {
  const width = Math.max(...Object.keys(commands).map((n) => n.length));
  const lines = Object.entries(commands).map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`);
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
    io.out(help());
    return name ? 0 : 2;
  }
  const command = commands[name];
  if (!command) {
    io.err(`toolwright: unknown command '${name}'.\n\n${help()}`);
    return 2;
  }
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

export { currentContracts } from "./check.js";
export type { Command, CommandIO } from "./command.js";
export type { ContractChange } from "./contract-diff.js";
export { diffContracts, formatContractChanges } from "./contract-diff.js";
export { defaultGenPath, generatedEntries, renderGenModule } from "./gen.js";
export type { LockedTool, Lockfile } from "./lockfile.js";
export { createLockfile, readLockfile, writeLockfile } from "./lockfile.js";
export type { LoadedProject, ProjectTool } from "./project.js";
export { loadProject } from "./project.js";
export type { RuntimeKey } from "./runtime-key.js";
