import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";
import type { Capability } from "../policy/capabilities.js";
import type { InvokableTool } from "../tools/tool-types.js";
import { ServerConnection, type TransportFactory } from "./connection.js";
import { portableName, uniqueName } from "./names.js";
import { remoteTool } from "./remote-tool.js";
import { takesTasks } from "./task-call.js";

/**
 * Where `mcpTools` finds a server: a connected SDK `Client`, a transport it connects a new
 * client over, or a function that makes the transport, which it calls again to start the
 * server anew when it exited (a stdio server whose process ended).
 */
export type McpSource = Client | Transport | TransportFactory;

/** The tools of {@link mcpTools}: an array, with `close()` for the connections `mcpTools` made. */
export interface McpToolList extends Array<InvokableTool> {
  /**
   * Closes every connection `mcpTools` opened itself (over a transport or a function that
   * makes one; stdio servers it started are stopped). A `Client` that was passed in stays
   * open: close it yourself.
   */
  close(): Promise<void>;
}

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

type Sources = McpSource | Readonly<Record<string, McpSource>>;

/** Duck-typed, so a client made with another copy of the SDK is still recognised. */
function isClient(source: Sources): source is Client {
  const candidate = source as Partial<Client>;
  return typeof candidate.callTool === "function" && typeof candidate.listTools === "function";
}

function isTransport(source: Sources): source is Transport {
  const candidate = source as Partial<Transport>;
  return typeof candidate.start === "function" && typeof candidate.send === "function";
}

function isOne(source: Sources): source is McpSource {
  return typeof source === "function" || isClient(source) || isTransport(source);
}

/** The source's connection, and whether `mcpTools` opened it (and so closes it). */
async function connected(
  source: McpSource,
  key: string | undefined,
): Promise<{ connection: ServerConnection; own: boolean }> {
  if (isClient(source)) {
    const name = () => source.getServerVersion()?.name ?? key ?? "(unnamed)";
    return { connection: new ServerConnection(source, name, undefined), own: false };
  }
  const client = new Client({ name: "toolwright", version: "0.1.0" });
  const name = () => client.getServerVersion()?.name ?? key ?? "(unnamed)";
  const factory = typeof source === "function" ? source : undefined;
  const transport = factory ? await factory() : (source as Transport);
  return { connection: await ServerConnection.open(client, transport, factory, name), own: true };
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
  readonly connection: ServerConnection;
  readonly own: boolean;
  readonly tools: McpTool[];
}

async function load(key: string | undefined, source: McpSource, options: McpToolsOptions): Promise<ServerTools> {
  const { connection, own } = await connected(source, key);
  const listed = await listAll(connection.client);
  const kept = options.filter ? listed.filter(options.filter) : listed;
  return { key, connection, own, tools: withoutUncallable(connection, kept) };
}

/**
 * Tools the server runs only as tasks (`execution.taskSupport: "required"`) are called as
 * tasks when the server says it takes them; a server that does not (an inconsistent
 * listing) would refuse every call, so those tools are left out, with a warning naming them.
 */
function withoutUncallable(connection: ServerConnection, tools: McpTool[]): McpTool[] {
  if (takesTasks(connection.client)) return tools;
  const taskOnly = tools.filter((t) => t.execution?.taskSupport === "required");
  if (taskOnly.length === 0) return tools;
  process.emitWarning(
    `MCP server ${connection.name()} marks ${taskOnly.map((t) => `"${t.name}"`).join(", ")} as callable only as tasks ` +
      `(execution.taskSupport: "required") but does not declare the tasks capability, so those tools are left out.`,
    { code: "TOOLWRIGHT_MCP_TASK_TOOLS" },
  );
  return tools.filter((t) => !taskOnly.includes(t));
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
 * Given a transport, `mcpTools` connects a client over it; given a function that makes a
 * transport, it does the same and calls the function again to start a server that exited
 * (a stdio server whose process ended) on the next call, up to 3 times in a row with a
 * growing wait. `close()` on the list closes what `mcpTools` opened. Given a `Client`, it
 * uses it as it is.
 *
 * A server that stops answering fails the calls waiting on it at once, naming the server
 * and the cause, and a call the server reports progress on reaches `ctx.progress` (a
 * `tool-progress` event of `agent.stream()`). Tools the server runs only as MCP tasks are
 * called as tasks.
 *
 * @example
 * ```ts
 * import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
 * import { mcpTools } from "toolwright/mcp";
 *
 * const remote = await mcpTools(() => new StdioClientTransport({ command: "npx", args: ["@modelcontextprotocol/server-everything"] }));
 * const agent = new Agent({ name: "helper", model, tools: [...remote, localTool] });
 * try { await agent.run("Add 2 and 3") } finally { await remote.close() }
 * ```
 */
export async function mcpTools(source: Sources, options: McpToolsOptions = {}): Promise<McpToolList> {
  const servers = isOne(source)
    ? [await load(undefined, source, options)]
    : await Promise.all(Object.entries(source).map(([key, one]) => load(key, one, options)));

  const uses = new Map<string, number>();
  for (const server of servers) for (const t of server.tools) uses.set(t.name, (uses.get(t.name) ?? 0) + 1);

  const taken = new Set<string>();
  const result = [] as unknown as McpToolList;
  for (const server of servers) {
    for (const remote of server.tools) {
      const clash = (uses.get(remote.name) ?? 0) > 1;
      const prefix = server.key !== undefined ? (clash ? server.key : undefined) : options.prefix;
      const wanted = portableName(prefix === undefined ? remote.name : `${prefix}_${remote.name}`);
      const approval =
        typeof options.needsApproval === "function" ? options.needsApproval(remote) : options.needsApproval;
      result.push(
        remoteTool(server.connection, remote, {
          name: uniqueName(wanted, taken),
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
  Object.defineProperty(result, "close", {
    enumerable: false,
    value: async () => {
      await Promise.all(servers.filter((s) => s.own).map((s) => s.connection.close()));
    },
  });
  return result;
}
