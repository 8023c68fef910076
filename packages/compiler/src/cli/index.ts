// The CLI's programmatic surface: the dispatcher and what tests and tools reuse of the commands.

export { currentContracts } from "./check.js";
export type { Command, CommandIO } from "./command.js";
export type { ContractChange } from "./contract-diff.js";
export { diffContracts, formatContractChanges } from "./contract-diff.js";
export { defaultGenPath, generatedEntries } from "./gen.js";
export { renderGenModule } from "./gen-module.js";
export type { LockedTool, Lockfile } from "./lockfile.js";
export { createLockfile, readLockfile, writeLockfile } from "./lockfile.js";
export { main } from "./main.js";
export { openProject } from "./open-project.js";
export type { LoadedProject, ProjectTool } from "./project.js";
export { loadProject } from "./project.js";
export type { RuntimeKey } from "./runtime-key.js";
