import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { type Tool, type ToolInput, toolsOf } from "toolwright";
import { parseOptions } from "./args.js";
import { type Command, type CommandIO, UsageError } from "./command.js";

const usage = `usage: toolwright mcp <module.js> [--name <name>] [--version <version>] [--http <port>] [--host <host>]

Serves the tools a built module exports over MCP, on stdio (what MCP hosts launch) or, with
--http, on Streamable HTTP. Exported tools, arrays of tools and objects with @tool methods
are served; the same tool exported twice is served once.
  --name     the server's name (default: the nearest package.json's name, else the file's)
  --version  the server's version (default: that package.json's version, else 0.0.0)
  --http     serve Streamable HTTP on this port (0 picks one) instead of stdio
  --host     the address to listen on with --http (default 127.0.0.1)

MCP host configuration (e.g. claude_desktop_config.json):
  { "mcpServers": { "weather": { "command": "npx", "args": ["toolwright", "mcp", "dist/tools.js"] } } }`;

function isTool(value: unknown): value is Tool {
  const candidate = value as Partial<Tool> | null;
  return (
    typeof candidate === "object" &&
    candidate !== null &&
    typeof candidate.name === "string" &&
    typeof candidate.execute === "function" &&
    typeof candidate.parameters === "object"
  );
}

/** What the compiler writes for a bare function in a tool list: `{ fn, spec }`. */
function isCompiledFunction(value: unknown): boolean {
  const candidate = value as { fn?: unknown; spec?: { $toolwright?: unknown } } | null;
  return typeof candidate?.fn === "function" && candidate.spec?.$toolwright !== undefined;
}

/** Every tool a module exports, in export order, each once. */
export function exportedTools(exports: Readonly<Record<string, unknown>>): ToolInput[] {
  const found = new Set<ToolInput>();
  for (const value of Object.values(exports)) {
    if (isTool(value)) found.add(value);
    else if (Array.isArray(value)) {
      for (const item of value) if (isTool(item) || isCompiledFunction(item)) found.add(item as ToolInput);
    } else if (typeof value === "object" && value !== null) {
      for (const method of toolsOf(value)) found.add(method);
    }
  }
  return [...found];
}

/** The name and version of the package the entry belongs to, from the nearest package.json. */
function packageOf(entry: string): { name?: string; version?: string } {
  for (let dir = path.dirname(entry); ; dir = path.dirname(dir)) {
    const file = path.join(dir, "package.json");
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, "utf8")) as { name?: string; version?: string };
      return { name: pkg.name?.replace(/^@[^/]+\//, ""), version: pkg.version };
    }
    if (path.dirname(dir) === dir) return {};
  }
}

async function loadMcp(): Promise<typeof import("toolwright/mcp")> {
  try {
    return await import("toolwright/mcp");
  } catch (error) {
    if (String(error).includes("@modelcontextprotocol/sdk")) {
      throw new Error(
        "serving MCP needs the official MCP SDK, an optional dependency of toolwright. " +
          "Install it in your project: npm install @modelcontextprotocol/sdk@1.32.2",
      );
    }
    throw error;
  }
}

async function serve(entry: string, values: Record<string, string | undefined>, io: CommandIO): Promise<number> {
  if (values.http !== undefined && !/^\d+$/.test(values.http)) {
    throw new UsageError(`--http takes a port number, got '${values.http}'.`);
  }
  const file = path.resolve(io.cwd, entry);
  if (!existsSync(file)) {
    throw new UsageError(
      `no file ${file}. Build the project first (tspc or tsc with the transformer) and pass the built .js file.`,
    );
  }
  const tools = exportedTools((await import(pathToFileURL(file).href)) as Record<string, unknown>);
  if (tools.length === 0) {
    io.err(
      `toolwright mcp: ${entry} exports no tools. Export tools made with tool(), an array of them, ` +
        "or an object with @tool methods.\n",
    );
    return 1;
  }
  const pkg = packageOf(file);
  const { serveMcp } = await loadMcp();
  const port = values.http;
  const handle = await serveMcp(tools, {
    name: values.name ?? pkg.name ?? path.basename(file, path.extname(file)),
    version: values.version ?? pkg.version ?? "0.0.0",
    transport: port === undefined ? "stdio" : { http: { port: Number(port), host: values.host ?? "127.0.0.1" } },
  });
  // Over stdio, stdout is the protocol: everything for people goes to stderr.
  io.err(
    `toolwright mcp: serving ${tools.length} tools from ${entry}${handle.url ? ` on ${handle.url}` : " over stdio"}\n`,
  );
  await handle.closed;
  return 0;
}

/** `toolwright mcp <module>`: serves a built module's tools to MCP clients. */
export const mcp: Command = {
  summary: "serve the tools a built module exports over MCP (stdio, or Streamable HTTP with --http)",
  usage,
  async run(args, io) {
    const [entry, ...rest] = args;
    if (!entry || entry.startsWith("-")) throw new UsageError("name the built module to serve, e.g. dist/tools.js.");
    const values = parseOptions(rest, {
      name: { type: "string" },
      version: { type: "string" },
      http: { type: "string" },
      host: { type: "string" },
    });
    return serve(entry, values, io);
  },
};
