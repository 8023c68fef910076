import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import { ElicitResultSchema, type ServerNotification, type ServerRequest } from "@modelcontextprotocol/sdk/types.js";
import type { ToolContext } from "../invoke/context.js";
import type { Tool, ToolArgs } from "../tools/tool-types.js";

/** What a handler gets besides the request, as the SDK types it for a server. */
export type ServerExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** A person's answer, or why no one could be asked. */
export type ApprovalDecision = { readonly approved: true } | { readonly approved: false; readonly message: string };

/** True when this call of `tool` must wait for a person: its `needsApproval` option or predicate, else its flag. */
export async function requiresApproval(tool: Tool, ctx: ToolContext<never>, args: ToolArgs): Promise<boolean> {
  const rule = tool.needsApproval ?? tool.flags.needsApproval;
  return typeof rule === "function" ? (await rule(ctx, args)) === true : rule === true;
}

/** The form the client shows: one required yes/no field. */
function approvalForm() {
  return {
    type: "object" as const,
    properties: {
      approve: { type: "boolean" as const, title: "Approve", description: "Run the tool with the arguments shown." },
    },
    required: ["approve"],
  };
}

/**
 * Asks the person behind the MCP client, through elicitation, whether the call may run;
 * `reason` says why the server's policy asks (its approval tier, or the trifecta), when the
 * tool itself did not. The request is sent as part of the `tools/call` in flight (so it
 * reaches the client on that call's stream over HTTP) and is cancelled with it. A client
 * that cannot elicit is never assumed to approve: the call is refused with a message saying why.
 */
export async function askApproval(
  server: Server,
  tool: Tool,
  args: ToolArgs,
  extra: ServerExtra,
  reason?: string,
): Promise<ApprovalDecision> {
  if (!server.getClientCapabilities()?.elicitation) {
    const why = reason === undefined ? "" : ` (${reason.replace(/\.$/, "")})`;
    const fix =
      reason === undefined
        ? "Use a client that supports elicitation, or serve the tool without needsApproval."
        : "Use a client that supports elicitation, or tell the user this step needs their approval.";
    return {
      approved: false,
      message:
        `tool "${tool.name}" needs a person's approval before it runs${why}, and this MCP client cannot ask for it ` +
        `(it does not declare the "elicitation" capability). The call did not run. ${fix}`,
    };
  }
  const asked = `Allow the tool "${tool.name}" to run with these arguments?\n${JSON.stringify(args, null, 2)}`;
  const answer = await extra.sendRequest(
    {
      method: "elicitation/create",
      params: {
        mode: "form",
        message: reason === undefined ? asked : `${asked}\nWhy you are asked: ${reason}`,
        requestedSchema: approvalForm(),
      },
    },
    ElicitResultSchema,
    { signal: extra.signal },
  );
  if (answer.action === "accept" && answer.content?.approve === true) return { approved: true };
  const how = answer.action === "accept" ? "answered no" : `chose "${answer.action}"`;
  return {
    approved: false,
    message: `A person did not approve the call of tool "${tool.name}" (they ${how} when asked). The call did not run.`,
  };
}
