import type { ToolFlags } from "toolwright";
import type { LockedTool, Lockfile } from "./lockfile.js";
import { diffSchemas } from "./schema-diff.js";

/** One difference between the committed tool contracts and the current ones. */
export interface ContractChange {
  readonly breaking: boolean;
  /** The tool's name (the locked name for removals and renames). */
  readonly tool: string;
  readonly message: string;
}

/** Flags whose change in this direction makes a tool more dangerous to call. */
const DANGER: readonly { flag: keyof ToolFlags; dangerous: boolean; message: string }[] = [
  { flag: "readOnly", dangerous: false, message: "is no longer readOnly (it may now change things)" },
  { flag: "idempotent", dangerous: false, message: "is no longer idempotent (repeating a call may now differ)" },
  { flag: "destructive", dangerous: true, message: "is now destructive" },
  { flag: "openWorld", dangerous: true, message: "now reaches outside the process (openWorld)" },
  { flag: "needsApproval", dangerous: false, message: "no longer needs approval" },
];

function diffFlags(name: string, before: ToolFlags, after: ToolFlags): ContractChange[] {
  const changes: ContractChange[] = [];
  for (const { flag, dangerous, message } of DANGER) {
    const was = before[flag] === true;
    const is = after[flag] === true;
    if (was === is) continue;
    const breaking = is === dangerous;
    changes.push({
      breaking,
      tool: name,
      message: breaking ? `flag: ${message}` : `flag: ${flag} ${is ? "set" : "removed"}`,
    });
  }
  return changes;
}

function diffTool(name: string, before: LockedTool, after: LockedTool): ContractChange[] {
  const changes: ContractChange[] = diffSchemas(before.parameters, after.parameters).map((change) => ({
    breaking: change.breaking,
    tool: name,
    message: change.message,
  }));
  changes.push(...diffFlags(name, before.flags, after.flags));
  if (before.description !== after.description)
    changes.push({ breaking: false, tool: name, message: "description changed" });
  if (JSON.stringify(before.outputSchema) !== JSON.stringify(after.outputSchema)) {
    changes.push({ breaking: false, tool: name, message: "output schema changed" });
  }
  return changes;
}

/**
 * Compares the committed contracts with the current ones. Breaking: a removed tool,
 * a renamed tool (a removed and an added tool wrapping the same function in the
 * same file), a new required parameter, a parameter removed or narrowed, and a flag
 * turned towards danger. Everything else is additive and passes.
 */
export function diffContracts(locked: Lockfile, current: Lockfile): ContractChange[] {
  const changes: ContractChange[] = [];
  const added = new Map(Object.entries(current.tools).filter(([name]) => !(name in locked.tools)));
  for (const [name, before] of Object.entries(locked.tools)) {
    const after = current.tools[name];
    if (after) {
      changes.push(...diffTool(name, before, after));
      continue;
    }
    const renamed = [...added].find(([, tool]) => tool.function === before.function && tool.source === before.source);
    if (renamed) {
      added.delete(renamed[0]);
      changes.push({
        breaking: true,
        tool: name,
        message: `renamed to "${renamed[0]}" (${before.source}, function ${before.function}); models and stored transcripts still call "${name}"`,
      });
      changes.push(...diffTool(renamed[0], before, renamed[1]));
    } else {
      changes.push({
        breaking: true,
        tool: name,
        message: `removed (was function ${before.function} in ${before.source})`,
      });
    }
  }
  for (const [name, tool] of added) {
    changes.push({ breaking: false, tool: name, message: `new tool (function ${tool.function} in ${tool.source})` });
  }
  return changes;
}

/** Formats changes as the readable diff `toolwright check` prints: breaking ones first. */
export function formatContractChanges(changes: readonly ContractChange[], lockPath: string): string {
  const breaking = changes.filter((c) => c.breaking);
  const additive = changes.filter((c) => !c.breaking);
  const lines: string[] = [];
  if (breaking.length > 0) {
    lines.push(`${breaking.length} breaking change${breaking.length === 1 ? "" : "s"} against ${lockPath}:`);
    for (const c of breaking) lines.push(`  - ${c.tool}: ${c.message}`);
  }
  if (additive.length > 0) {
    lines.push(`${additive.length} additive change${additive.length === 1 ? "" : "s"}:`);
    for (const c of additive) lines.push(`  + ${c.tool}: ${c.message}`);
  }
  if (changes.length === 0) lines.push(`No change against ${lockPath}.`);
  return lines.join("\n");
}
