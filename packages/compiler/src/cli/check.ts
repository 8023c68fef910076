import { join, relative, resolve } from "node:path";
import { parseOptions, projectOption, typescriptOption } from "./args.js";
import type { Command } from "./command.js";
import { diffContracts, formatContractChanges } from "./contract-diff.js";
import { createLockfile, type LockedTool, type Lockfile, readLockfile, writeLockfile } from "./lockfile.js";
import { openProject } from "./open-project.js";
import { progressFor } from "./progress.js";
import type { LoadedProject } from "./project.js";
import { formatDiagnostics, hasErrors } from "./report.js";

/** The project's tool contracts as a lockfile (the first site wins when two share a name). */
export function currentContracts(project: LoadedProject): Lockfile {
  const tools = new Map<string, LockedTool>();
  for (const tool of project.tools) {
    const { spec } = tool;
    if (tools.has(spec.name)) continue;
    tools.set(spec.name, {
      function: tool.key.problem === undefined && tool.key.fn ? tool.key.fn : spec.name,
      source: tool.file,
      description: spec.description,
      parameters: spec.parameters,
      ...(spec.outputSchema ? { outputSchema: spec.outputSchema } : {}),
      flags: spec.flags,
    });
  }
  return createLockfile(tools);
}

const usage = `usage: toolwright check [-p tsconfig.json] [--lockfile <file>] [--update] [--typescript <dir>]

Compares every tool's contract with the committed lockfile (default toolwright.lock.json
next to tsconfig.json) and exits 1 on a breaking change: a removed or renamed tool, a new
required parameter, a parameter removed or narrowed (type, enum value, constraint), a flag
turned towards danger. Additive changes pass.
  -p, --project  the tsconfig.json to read (default: the nearest one)
  --lockfile     the lockfile to compare with
  --update       accept the current contracts: rewrite the lockfile
  --typescript   the folder of a TypeScript 7 package to use instead of the project's`;

/** `toolwright check`: fails on breaking changes to tool contracts against `toolwright.lock.json`. */
export const check: Command = {
  summary: "fail on breaking changes to tool contracts against toolwright.lock.json (--update accepts them)",
  usage,
  async run(args, io) {
    const values = parseOptions(args, {
      ...projectOption,
      ...typescriptOption,
      lockfile: { type: "string" },
      update: { type: "boolean" },
    });
    const progress = progressFor(io, "toolwright check");
    const project = await openProject(io.cwd, values.project, { progress, typescript: values.typescript });
    progress.done();
    if (project.diagnostics.length > 0) io.err(formatDiagnostics(project.diagnostics, project.root, false));
    if (hasErrors(project.diagnostics)) return 1;
    const lockPath = values.lockfile ? resolve(io.cwd, values.lockfile) : join(project.root, "toolwright.lock.json");
    const shown = relative(io.cwd, lockPath) || lockPath;
    const current = currentContracts(project);
    const locked = readLockfile(lockPath);
    if (values.update) {
      const changes = locked ? diffContracts(locked, current) : [];
      writeLockfile(lockPath, current);
      if (changes.length > 0) io.out(`${formatContractChanges(changes, shown)}\n`);
      const count = Object.keys(current.tools).length;
      io.out(`wrote ${count} tool contract${count === 1 ? "" : "s"} to ${shown}\n`);
      return 0;
    }
    if (!locked) {
      io.err(
        `${shown} does not exist: run 'toolwright check --update' to record the current tool contracts, and commit it.\n`,
      );
      return 1;
    }
    const changes = diffContracts(locked, current);
    const breaking = changes.some((c) => c.breaking);
    const report = formatContractChanges(changes, shown);
    if (breaking) {
      io.err(`${report}\nIf these changes are intended, run 'toolwright check --update' and commit ${shown}.\n`);
      return 1;
    }
    io.out(`${report}\n`);
    return 0;
  },
};
