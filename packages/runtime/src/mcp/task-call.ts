import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { RequestOptions } from "@modelcontextprotocol/sdk/shared/protocol.js";
import { type CallToolRequest, type CallToolResult, CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import type { ToolLogger } from "../invoke/context.js";

/** Whether a server takes task-based `tools/call` requests (the MCP tasks capability). */
export function takesTasks(client: Client): boolean {
  return client.getServerCapabilities()?.tasks?.requests?.tools?.call !== undefined;
}

/**
 * Calls a tool the server runs only as a task (`execution.taskSupport: "required"`): the
 * request creates the task, the SDK polls its status (each status message goes to
 * `ctx.log`), and the result is fetched once it completes. `options.signal` aborting
 * cancels the task on the server (`tasks/cancel`) as well as the polling.
 */
export async function callAsTask(
  client: Client,
  params: CallToolRequest["params"],
  options: RequestOptions & { readonly signal: AbortSignal },
  log: ToolLogger,
): Promise<CallToolResult> {
  let taskId: string | undefined;
  const cancel = () => {
    if (taskId !== undefined) client.experimental.tasks.cancelTask(taskId).catch(() => {});
  };
  options.signal.addEventListener("abort", cancel, { once: true });
  try {
    for await (const message of client.experimental.tasks.callToolStream(params, CallToolResultSchema, options)) {
      switch (message.type) {
        case "taskCreated":
          taskId = message.task.taskId;
          break;
        case "taskStatus":
          if (message.task.statusMessage) log.info(`task ${message.task.status}: ${message.task.statusMessage}`);
          break;
        case "result":
          return message.result as CallToolResult;
        case "error":
          throw message.error;
      }
    }
    throw new Error(`the task${taskId === undefined ? "" : ` ${taskId}`} ended without a result`);
  } finally {
    options.signal.removeEventListener("abort", cancel);
  }
}
