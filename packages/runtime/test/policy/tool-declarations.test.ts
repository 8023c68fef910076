import { describe, expect, it } from "vitest";
import { type CompiledSpec, SPEC_VERSION, tool } from "../../src/index.js";

/** What the compiler writes for `@capability untrusted_content` and `@egress url`. */
const SPEC = {
  $toolwright: SPEC_VERSION,
  name: "fetchPage",
  description: "Fetches a web page and returns its text.",
  parameters: {
    type: "object",
    properties: { url: { type: "string" } },
    required: ["url"],
    additionalProperties: false,
  },
  slots: [{ kind: "arg", name: "url" }],
  flags: { readOnly: true },
  capabilities: ["untrusted_content"],
  egress: "url",
  source: { file: "tools.ts", line: 3 },
} as CompiledSpec;

describe("policy declarations of a compiled tool", () => {
  it("come from the spec", () => {
    const page = tool((url: string) => url, undefined, SPEC);
    expect(page.capabilities).toEqual(["untrusted_content"]);
    expect(page.egress).toBe("url");
    expect(page.flags).toEqual({ readOnly: true });
  });

  it("options win over the spec, and never land among the flags", () => {
    const page = tool((url: string) => url, { capabilities: ["private_data"], egress: "url" }, SPEC);
    expect(page.capabilities).toEqual(["private_data"]);
    expect(page.flags).toEqual({ readOnly: true });
  });
});
