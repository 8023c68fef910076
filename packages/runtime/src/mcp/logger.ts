import type { LoggingLevel } from "@modelcontextprotocol/sdk/types.js";
import type { ToolLogger } from "../invoke/context.js";
import type { ServerExtra } from "./approval.js";

const levels: Record<keyof ToolLogger, LoggingLevel> = {
  debug: "debug",
  info: "info",
  warn: "warning",
  error: "error",
};

/**
 * `ctx.log` of a served call: each line goes to the client as an MCP log message
 * (`notifications/message`, logger = the tool's name) on the call's own stream. A client
 * that went away does not fail the tool.
 */
export function mcpLogger(toolName: string, extra: ServerExtra): ToolLogger {
  const send = (level: keyof ToolLogger) => (message: string, data?: unknown) => {
    const payload = data === undefined ? message : { message, data };
    extra
      .sendNotification({
        method: "notifications/message",
        params: { level: levels[level], logger: toolName, data: payload },
      })
      .catch(() => {});
  };
  return { debug: send("debug"), info: send("info"), warn: send("warn"), error: send("error") };
}
