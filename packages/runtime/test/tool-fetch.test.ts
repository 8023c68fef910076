import { describe, expect, it } from "vitest";
import { ToolError } from "../src/index.js";
import { toolFetch } from "../src/invoke/tool-fetch.js";
import { parseAllowlist } from "../src/policy/egress-allowlist.js";

// ctx.fetch loads the guarded fetch on its first request and behaves as it does.
const never = new AbortController().signal;

describe("ctx.fetch", () => {
  it("refuses every request without an allowlist, saying how to add one", async () => {
    await expect(toolFetch(undefined, never)("https://api.example.com/")).rejects.toThrow(
      /no egress allowlist, so tools may not send requests\. The developer can allow hosts/,
    );
  });

  it("refuses a host off the allowlist with a ToolError the model reads", async () => {
    const fetch = toolFetch(parseAllowlist("t", { allow: ["api.example.com"] }), never);
    const refused = fetch("https://elsewhere.example.org/");
    await expect(refused).rejects.toBeInstanceOf(ToolError);
    await expect(refused).rejects.toThrow(
      /^ctx\.fetch refused https:\/\/elsewhere\.example\.org\/: .*allowed: api\.example\.com/,
    );
  });
});
