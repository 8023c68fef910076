/**
 * Diagnostic: a process that only imports undici (toolwright's HTTP client, resolved from
 * toolwright's own dependencies). toolwright's root entry re-exports the providers, so
 * every `import "toolwright"` pays this, even for an agent given a Model object.
 */
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";
import { reportFirstCall } from "./report.mjs";

const fromToolwright = createRequire(fileURLToPath(import.meta.resolve("toolwright")));
const undici = await import(pathToFileURL(fromToolwright.resolve("undici")).href);
reportFirstCall(typeof undici.request === "function");
