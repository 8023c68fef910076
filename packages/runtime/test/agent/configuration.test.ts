import { describe, expect, it } from "vitest";
import { Agent, type AgentOptions, type CompiledSpec, SPEC_VERSION, tool } from "../../src/index.js";
import { FakeModel } from "../../src/testing/index.js";

const fetchPage = tool({
  name: "fetch_page",
  description: "Fetches a web page.",
  parameters: { type: "object", properties: { url: { type: "string" } }, required: ["url"] },
  egress: "url",
  execute: () => "page",
});

/** [what is wrong, the options, the message `new Agent()` throws] */
const MISTAKES: [string, Partial<AgentOptions>, string][] = [
  [
    "an allowlist entry that matches nothing",
    { egress: { allow: [".example.com"] } },
    'agent "cfg": egress.allow entry ".example.com" has an empty label (two dots in a row, or a leading dot), so it matches no host. Write a host ("api.example.com"), a wildcard ("*.example.com") or a scheme, host and port ("http://127.0.0.1:8080").',
  ],
  [
    "a wildcard over a public suffix",
    { egress: { allow: ["https://*.com:*"] } },
    'agent "cfg": egress.allow entry "https://*.com:*" is a wildcard over the public suffix "com", under which anyone can register a name (attacker.com); list the domain you mean, as "*.example.com". Write a host ("api.example.com"), a wildcard ("*.example.com") or a scheme, host and port ("http://127.0.0.1:8080").',
  ],
  [
    "a lookup that is not a function",
    { egress: { allow: ["api.example.com"], lookup: "8.8.8.8" as never } },
    'agent "cfg": egress.lookup must be a function shaped like dns.lookup (hostname, options, callback), got "8.8.8.8". Leave it out to use the system resolver.',
  ],
  [
    "a URL-taking tool with no allowlist",
    { tools: [fetchPage] },
    'agent "cfg": tool "fetch_page" sends requests to its "url" argument, but the agent has no egress allowlist. Fix: list the hosts it may reach, as in new Agent({ egress: { allow: ["api.example.com"] } }).',
  ],
  [
    "an unknown trifecta action",
    { trifecta: "maybe" as never },
    'agent "cfg": trifecta must be "refuse", "approve" or "allow", got "maybe".',
  ],
  [
    "an unknown memory scope",
    { memory: { scope: "team" as never } },
    'agent "cfg": memory.scope must be "user" or "session", got "team".',
  ],
  [
    "a memory size cap below one character",
    { memory: { maxChars: 0 } },
    'agent "cfg": memory.maxChars must be a whole number of at least 1, got 0.',
  ],
];

describe("configuration errors", () => {
  it.each(MISTAKES)("throws %s from new Agent(), before any run", (_what, options, message) => {
    expect(() => new Agent({ name: "cfg", model: FakeModel.script(["never asked"]), ...options })).toThrow(message);
  });

  it("refuses a URL-taking tool added with agent.tool() to an agent with no allowlist, leaving it out", async () => {
    const agent = new Agent({ name: "cfg", model: FakeModel.script(["Done."]) });
    const fetchUrl = (url: string) => url;
    const spec = {
      $toolwright: SPEC_VERSION,
      name: "fetchUrl",
      description: "Fetches a URL.",
      parameters: { type: "object", properties: { url: { type: "string" } }, required: ["url"] },
      slots: [{ kind: "arg", name: "url" }],
      flags: {},
      source: { file: "fetch.ts", line: 1 },
    } as CompiledSpec;
    expect(() => agent.tool(fetchUrl, { egress: "url" }, spec)).toThrow(
      'agent "cfg": tool "fetchUrl" sends requests to its "url" argument, but the agent has no egress allowlist.',
    );
    expect(agent.toolNames).toEqual([]);
    expect((await agent.run("Go.")).output).toBe("Done.");
  });
});
