import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { ToolInput } from "../tools/tool-types.js";
import { type McpHttpOptions, type McpServerHandle, serveMcpHttp } from "./http.js";
import { createMcpServer, type McpServerOptions } from "./server.js";

/** Options of {@link serveMcp}: the server's identity and how clients reach it. */
export interface ServeMcpOptions<Deps = unknown> extends McpServerOptions<Deps> {
  /** `"stdio"` (default: the process's stdin and stdout, as MCP hosts launch servers) or Streamable HTTP. */
  readonly transport?: "stdio" | { readonly http: McpHttpOptions };
}

/**
 * Serves typed tools to any MCP client: each tool's schema in the MCP dialect, its
 * output schema and `structuredContent` when the return type is checkable, annotations
 * from its flags, the loop's validation feedback on bad arguments, its time limit, and
 * cancellation through `ctx.signal`. Tools that need approval ask the person through
 * elicitation, or are refused when the client cannot ask. The policy options are an
 * agent's: `egress` (where `ctx.fetch` and `@egress` URL arguments may go; without it every
 * request is refused), `approve` and `trifecta`, checked when the server is made.
 *
 * Over stdio, stdout carries the protocol: write logs with `ctx.log` (sent to the client)
 * or to stderr, never with `console.log`.
 *
 * @example
 * ```ts
 * import { serveMcp } from "toolwright/mcp";
 * import { forecast, weather } from "./tools.js";
 *
 * await serveMcp([weather, forecast], { name: "weather", version: "1.0.0" });            // stdio
 * await serveMcp([weather], { name: "weather", version: "1.0.0", transport: { http: { port: 3000 } } });
 * await serveMcp([weather], { name: "weather", version: "1.0.0", egress: { allow: ["api.weather.example"] } });
 * ```
 */
export async function serveMcp<Deps = unknown>(
  tools: readonly ToolInput[],
  options: ServeMcpOptions<Deps>,
): Promise<McpServerHandle> {
  const transport = options.transport ?? "stdio";
  if (transport !== "stdio") return serveMcpHttp(tools, options, transport.http);
  const server = createMcpServer(tools, options, "stdio");
  const closed = new Promise<void>((resolve) => {
    server.onclose = resolve;
  });
  await server.connect(new StdioServerTransport());
  // The SDK's stdio transport does not notice the client going away; an MCP host ends a
  // server by closing its stdin, so that is when this one stops.
  process.stdin.once("end", () => {
    server.close().catch(() => {});
  });
  return { closed, close: () => server.close() };
}
