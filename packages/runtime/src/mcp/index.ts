/**
 * `toolwright/mcp`: the Model Context Protocol both ways, on the official SDK (an
 * optional peer dependency, needed only by this entry point).
 * - serve typed tools to any MCP client: {@link serveMcp}, {@link createMcpServer};
 * - give an agent the tools of any MCP server: {@link mcpTools}.
 *
 * @example
 * ```ts
 * import { mcpTools, serveMcp } from "toolwright/mcp";
 * await serveMcp([weather], { name: "weather", version: "1.0.0" });
 * const remote = await mcpTools(transport, { prefix: "files" });
 * ```
 */
export { McpServerConfigError } from "../errors.js";
export type { McpSource, McpToolList, McpToolsOptions } from "./client-tools.js";
export { mcpTools } from "./client-tools.js";
export type { TransportFactory } from "./connection.js";
export type { McpHttpOptions, McpServerHandle } from "./http.js";
export { serveMcpHttp } from "./http.js";
export type { McpAccessOptions } from "./http-access.js";
export { portableName } from "./names.js";
export { flagsOf } from "./remote-tool.js";
export type { ServeMcpOptions } from "./serve.js";
export { serveMcp } from "./serve.js";
export type { McpServerOptions } from "./server.js";
export { createMcpServer } from "./server.js";
export type { McpSession } from "./session.js";
export { mcpSession } from "./session.js";
