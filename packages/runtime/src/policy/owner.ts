import { AgentConfigError, type ToolwrightError } from "../errors.js";

/**
 * Who holds a security policy (an agent, an MCP server): the words its configuration errors
 * and the refusals the model reads use, so each one names the owner and the fix that fits it.
 */
export interface PolicyOwner {
  /** How configuration errors name it: `agent "support"`, `MCP server "weather"`. */
  readonly label: string;
  /** What it is, in sentences: `"agent"`, `"MCP server"`. */
  readonly noun: string;
  /** The stretch of calls the trifecta is judged over: an agent's `"run"`, a server's `"session"`. */
  readonly span: string;
  /** How its developer lists the hosts tools may reach, as code: `new Agent({ egress: { allow: [...] } })`. */
  readonly egressFix: string;
  /** The error a mistake in its options throws. */
  configError(message: string): ToolwrightError;
}

/** An agent, as `new Agent({ name })` makes it. */
export function agentOwner(name: string): PolicyOwner {
  return {
    label: `agent "${name}"`,
    noun: "agent",
    span: "run",
    egressFix: 'new Agent({ egress: { allow: ["api.example.com"] } })',
    configError: (message) => new AgentConfigError(message),
  };
}
