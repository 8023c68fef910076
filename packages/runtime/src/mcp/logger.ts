import { type LoggingLevel, LoggingLevelSchema } from "@modelcontextprotocol/sdk/types.js";
import type { ToolLogger } from "../invoke/context.js";
import type { ServerExtra } from "./approval.js";

const levels: Record<keyof ToolLogger, LoggingLevel> = {
  debug: "debug",
  info: "info",
  warn: "warning",
  error: "error",
};

/** The protocol's levels, least severe first (`debug` ... `emergency`). */
const severity: readonly LoggingLevel[] = LoggingLevelSchema.options;

/**
 * `ctx.log` of a served call: each line goes to the client as an MCP log message
 * (`notifications/message`, logger = the tool's name) on the call's own stream, unless it
 * is less severe than the level the client set with `logging/setLevel` (`threshold`). A
 * client that went away does not fail the tool.
 */
export function mcpLogger(toolName: string, extra: ServerExtra, threshold: () => LoggingLevel | undefined): ToolLogger {
  const send = (method: keyof ToolLogger) => {
    const level = levels[method];
    return (message: string, data?: unknown) => {
      const least = threshold();
      if (least !== undefined && severity.indexOf(level) < severity.indexOf(least)) return;
      const payload = data === undefined ? message : { message, data };
      extra
        .sendNotification({ method: "notifications/message", params: { level, logger: toolName, data: payload } })
        .catch(() => {});
    };
  };
  return { debug: send("debug"), info: send("info"), warn: send("warn"), error: send("error") };
}
