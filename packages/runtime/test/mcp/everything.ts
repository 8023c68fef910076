import { fileURLToPath } from "node:url";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

/** The reference "everything" MCP server from npm (a devDependency), started as a real child process. */
const everythingMain = fileURLToPath(
  new URL("../../node_modules/@modelcontextprotocol/server-everything/dist/index.js", import.meta.url),
);

/** A stdio transport that launches a fresh "everything" server when connected; close it to stop the process. */
export function everythingTransport(): StdioClientTransport {
  return new StdioClientTransport({ command: process.execPath, args: [everythingMain, "stdio"], stderr: "pipe" });
}
