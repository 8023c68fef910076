/**
 * Diagnostic: a process that only imports undici (the HTTP client of `toolwright/providers`,
 * resolved from toolwright's own dependencies): what a program using a provider adds to
 * its start, and what the root entry must keep out of its import graph.
 */
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";
import { reportFirstCall } from "./report.mjs";

const fromToolwright = createRequire(fileURLToPath(import.meta.resolve("toolwright")));
const undici = await import(pathToFileURL(fromToolwright.resolve("undici")).href);
reportFirstCall(typeof undici.request === "function");
