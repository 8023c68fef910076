import { describe, expect, it } from "vitest";
import { ToolError } from "../src/index.js";
import { toolFetch } from "../src/invoke/tool-fetch.js";
import { parseAllowlist } from "../src/policy/egress-allowlist.js";
import { agentOwner } from "../src/policy/owner.js";

// ctx.fetch loads the guarded fetch on its first request and behaves as it does.
const never = new AbortController().signal;
const agent = agentOwner("t");

describe("ctx.fetch", () => {
  it("refuses every request of an agent without an allowlist, saying how the developer adds one", async () => {
    const refused = toolFetch({ egress: undefined, owner: agent }, never)("https://api.example.com/");
    await expect(refused).rejects.toBeInstanceOf(ToolError);
    await expect(refused).rejects.toThrow(
      'ctx.fetch refused https://api.example.com/: this agent has no egress allowlist, so tools may not send requests. The developer can allow hosts with new Agent({ egress: { allow: ["api.example.com"] } }).',
    );
  });

  it("refuses every request outside an agent or server, naming both ways to send one", async () => {
    await expect(toolFetch(undefined, never)("https://api.example.com/")).rejects.toThrow(
      "ctx.fetch refused https://api.example.com/: the tool runs outside an agent and an MCP server, so no egress allowlist applies and it may not send requests. " +
        "Run it in an Agent or serveMcp given an egress allowlist, or pass a fetch of your own: invoke(args, { fetch }).",
    );
  });

  it("refuses a host off the allowlist with a ToolError the model reads", async () => {
    const fetch = toolFetch({ egress: parseAllowlist(agent, { allow: ["api.example.com"] }), owner: agent }, never);
    const refused = fetch("https://elsewhere.example.org/");
    await expect(refused).rejects.toBeInstanceOf(ToolError);
    await expect(refused).rejects.toThrow(
      /^ctx\.fetch refused https:\/\/elsewhere\.example\.org\/: .*allowed: api\.example\.com/,
    );
  });
});
