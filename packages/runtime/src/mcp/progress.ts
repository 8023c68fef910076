import type { ToolProgress } from "../invoke/context.js";
import { ignoreProgress } from "../invoke/run-tool.js";
import type { ServerExtra } from "./approval.js";

/**
 * `ctx.progress` of a served call: `notifications/progress` on the call's own stream when
 * the request carried a `progressToken` (the client asked to hear), nothing otherwise. MCP
 * wants the value to grow with every notification, so a report that does not move past the
 * last one is dropped rather than sent out of order. A client that went away does not fail
 * the tool.
 */
export function mcpProgress(extra: ServerExtra): ToolProgress {
  const token = extra._meta?.progressToken;
  if (token === undefined) return ignoreProgress;
  let last = Number.NEGATIVE_INFINITY;
  return (done, total, message) => {
    if (!(done > last)) return;
    last = done;
    extra
      .sendNotification({
        method: "notifications/progress",
        params: {
          progressToken: token,
          progress: done,
          ...(total === undefined ? {} : { total }),
          ...(message === undefined ? {} : { message }),
        },
      })
      .catch(() => {});
  };
}
