import { describe, expect, it } from "vitest";
import { flagsOf, portableName } from "../../src/mcp/index.js";
import { uniqueName } from "../../src/mcp/names.js";

describe("portableName", () => {
  it("keeps names that already follow the portable rule", () => {
    expect(portableName("get-sum")).toBe("get-sum");
    expect(portableName("read_file")).toBe("read_file");
  });

  it("replaces characters providers refuse, and makes the name start with a letter", () => {
    expect(portableName("files/read.text")).toBe("files_read_text");
    expect(portableName("2fa code")).toBe("t2fa_code");
    expect(portableName("_private")).toBe("t_private");
  });

  it("cuts names to 64 characters", () => {
    const name = portableName("x".repeat(100));
    expect(name).toHaveLength(64);
    expect(name).toMatch(/^[a-zA-Z][a-zA-Z0-9_-]{0,63}$/);
  });
});

describe("uniqueName", () => {
  it("numbers later clashes from 2, staying within 64 characters", () => {
    const taken = new Set<string>();
    expect(uniqueName("a_b", taken)).toBe("a_b");
    expect(uniqueName("a_b", taken)).toBe("a_b_2");
    expect(uniqueName("a_b", taken)).toBe("a_b_3");
    const long = "y".repeat(64);
    uniqueName(long, taken);
    expect(uniqueName(long, taken)).toBe(`${"y".repeat(62)}_2`);
  });
});

describe("flagsOf (MCP annotations to toolwright flags)", () => {
  it("maps each stated hint onto its flag", () => {
    expect(flagsOf({ readOnlyHint: true, openWorldHint: false })).toEqual({
      readOnly: true,
      destructive: false,
      idempotent: true,
      openWorld: false,
    });
    expect(flagsOf({ readOnlyHint: false, destructiveHint: false, idempotentHint: true })).toEqual({
      readOnly: false,
      destructive: false,
      idempotent: true,
      openWorld: true,
    });
  });

  it("reads a tool that states nothing as MCP does: destructive and open-world, so it is never retried", () => {
    expect(flagsOf(undefined)).toEqual({ readOnly: false, destructive: true, idempotent: false, openWorld: true });
  });
});
