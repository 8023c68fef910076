import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";
import type { Capability } from "../policy/capabilities.js";
import type { InvokableTool } from "../tools/tool-types.js";
import { portableName, uniqueName } from "./names.js";
import { remoteTool } from "./remote-tool.js";

/** A connected SDK `Client`, or a transport that `mcpTools` connects a new client over. */
export type McpSource = Client | Transport;

/** Options of {@link mcpTools}. */
export interface McpToolsOptions {
  /** Put `<prefix>_` before every tool name of the server (one source only; named sources prefix on clashes). */
  readonly prefix?: string;
  /** Keep only the tools this returns true for (called with the server's own description of each tool). */
  readonly filter?: (tool: McpTool) => boolean;
  /**
   * Which tools wait for a person's approval before they run, decided per tool from the
   * server's description (e.g. `(t) => t.annotations?.readOnlyHint !== true`). Default: none.
   */
  readonly needsApproval?: boolean | ((tool: McpTool) => boolean);
  /**
   * What these tools touch, for the agent's trifecta policy (see `Capability`): one list for
   * every tool, or decided per tool and per server (`server` is the key of a named source,
   * undefined for a single one), e.g. `(t, server) => server === "web" ? ["untrusted_content", "egress"] : []`.
   * Default: none, so the policy does not see them.
   */
  readonly capabilities?:
    | readonly Capability[]
    | ((tool: McpTool, server: string | undefined) => readonly Capability[] | undefined);
  /** Per-call time limit of these tools, in milliseconds (default: the agent's `toolTimeoutMs`). */
  readonly timeoutMs?: number;
  /** Longest a single `tools/call` request may take at the protocol level (default 10 minutes). */
  readonly requestTimeoutMs?: number;
}

const DEFAULT_REQUEST_TIMEOUT_MS = 600_000;

/** Duck-typed, so a client made with another copy of the SDK is still recognised. */
function isClient(source: McpSource | Readonly<Record<string, McpSource>>): source is Client {
  const candidate = source as Partial<Client>;
  return typeof candidate.callTool === "function" && typeof candidate.listTools === "function";
}

function isTransport(source: McpSource | Readonly<Record<string, McpSource>>): source is Transport {
  const candidate = source as Partial<Transport>;
  return typeof candidate.start === "function" && typeof candidate.send === "function";
}

async function connected(source: McpSource): Promise<Client> {
  if (isClient(source)) return source;
  const client = new Client({ name: "toolwright", version: "0.1.0" });
  await client.connect(source);
  return client;
}

async function listAll(client: Client): Promise<McpTool[]> {
  const tools: McpTool[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor === undefined ? undefined : { cursor });
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor);
  return tools;
}

interface ServerTools {
  readonly key: string | undefined;
  readonly client: Client;
  readonly tools: McpTool[];
}

async function load(key: string | undefined, source: McpSource, options: McpToolsOptions): Promise<ServerTools> {
  const client = await connected(source);
  const tools = await listAll(client);
  return { key, client, tools: options.filter ? tools.filter(options.filter) : tools };
}

/**
 * Gives an agent the tools of MCP servers. Each tool is validated against the server's
 * own `inputSchema` before it is called, carries the server's annotations as flags (so
 * approval and retry policies apply), and is cancelled through `ctx.signal`.
 *
 * Names: every name is made portable (`^[a-zA-Z][a-zA-Z0-9_-]{0,63}$`: other characters
 * become `_`). With one source, `prefix` is put before every name as `<prefix>_<name>`.
 * With named sources (`{ files: a, web: b }`), a name that more than one server uses
 * becomes `<serverKey>_<name>` on each of them; the others keep their names. A name that
 * is still taken gets `_2`, `_3`, ... in the order the servers were given.
 *
 * Each tool has `invoke(args, ctx?)`, as `tool()` tools have: validate, call, serialize.
 *
 * Given a transport, `mcpTools` connects a client over it; close the transport when done.
 * Given a `Client`, it uses it as it is.
 *
 * @example
 * ```ts
 * import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
 * import { mcpTools } from "toolwright/mcp";
 *
 * const transport = new StdioClientTransport({ command: "npx", args: ["@modelcontextprotocol/server-everything"] });
 * const agent = new Agent({ name: "helper", model, tools: [...(await mcpTools(transport)), localTool] });
 * try { await agent.run("Add 2 and 3") } finally { await transport.close() }
 * ```
 */
export async function mcpTools(
  source: McpSource | Readonly<Record<string, McpSource>>,
  options: McpToolsOptions = {},
): Promise<InvokableTool[]> {
  const named = !isClient(source) && !isTransport(source);
  const servers = named
    ? await Promise.all(Object.entries(source).map(([key, one]) => load(key, one, options)))
    : [await load(undefined, source, options)];

  const uses = new Map<string, number>();
  for (const server of servers) for (const t of server.tools) uses.set(t.name, (uses.get(t.name) ?? 0) + 1);

  const taken = new Set<string>();
  const result: InvokableTool[] = [];
  for (const server of servers) {
    const serverName = server.client.getServerVersion()?.name ?? server.key ?? "(unnamed)";
    for (const remote of server.tools) {
      const clash = (uses.get(remote.name) ?? 0) > 1;
      const prefix = server.key !== undefined ? (clash ? server.key : undefined) : options.prefix;
      const wanted = portableName(prefix === undefined ? remote.name : `${prefix}_${remote.name}`);
      const approval =
        typeof options.needsApproval === "function" ? options.needsApproval(remote) : options.needsApproval;
      result.push(
        remoteTool(server.client, remote, {
          name: uniqueName(wanted, taken),
          serverName,
          needsApproval: approval,
          capabilities:
            typeof options.capabilities === "function"
              ? options.capabilities(remote, server.key)
              : options.capabilities,
          timeoutMs: options.timeoutMs,
          requestTimeoutMs: options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
        }),
      );
    }
  }
  return result;
}
