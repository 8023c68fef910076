import path from "node:path";
import { main } from "@toolwright/compiler/cli";
import { describe, expect, it } from "vitest";

/** Runs `toolwright <args>` in-process, collecting what it writes. */
async function toolwright(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const code = await main(args, {
    cwd: import.meta.dirname,
    out: (text) => {
      out += text;
    },
    err: (text) => {
      err += text;
    },
  });
  return { code, out, err };
}

describe("toolwright mcp: wrong command lines say what to do", () => {
  it("is listed in the CLI's help", async () => {
    const { out } = await toolwright("--help");
    expect(out).toMatch(/^\s+mcp\s+serve the tools a built module exports over MCP/m);
  });

  it("lists the policy flags in its own help", async () => {
    const { code, out } = await toolwright("mcp", "--help");
    expect(code).toBe(0);
    for (const flag of ["--egress", "--allow-private-addresses", "--max-redirects", "--approve", "--trifecta"]) {
      expect(out).toContain(`[${flag}`);
      expect(out).toMatch(new RegExp(`^  ${flag}\\b`, "m"));
    }
  });

  it("wants --egress for the allowlist's other flags, and a whole number of redirects", async () => {
    const alone = await toolwright("mcp", "fixtures/no-tools.mjs", "--max-redirects", "2");
    expect(alone.code).toBe(2);
    expect(alone.err).toMatch(/--max-redirects applies to the egress allowlist: add --egress <hosts>\./);
    const loose = await toolwright(
      "mcp",
      "fixtures/no-tools.mjs",
      "--egress",
      "api.example.com",
      "--max-redirects",
      "two",
    );
    expect(loose.code).toBe(2);
    expect(loose.err).toMatch(/--max-redirects takes a whole number, got 'two'\./);
    const empty = await toolwright("mcp", "fixtures/no-tools.mjs", "--egress", " , ");
    expect(empty.err).toMatch(/--egress takes hosts, comma-separated, e\.g\. --egress api\.example\.com\./);
  });

  it("asks for the module when none is named", async () => {
    const { code, err } = await toolwright("mcp");
    expect(code).toBe(2);
    expect(err).toMatch(/name the built module to serve, e\.g\. dist\/tools\.js/);
    expect(err).toMatch(/usage: toolwright mcp <module\.js>/);
  });

  it("names the missing file and the fix", async () => {
    const { code, err } = await toolwright("mcp", "dist/nowhere.js");
    expect(code).toBe(2);
    expect(err).toContain(`no file ${path.join(import.meta.dirname, "dist/nowhere.js")}`);
    expect(err).toMatch(/Build the project first/);
  });

  it("refuses a module that exports no tools", async () => {
    const { code, err } = await toolwright("mcp", "fixtures/no-tools.mjs");
    expect(code).toBe(1);
    expect(err).toMatch(/fixtures\/no-tools\.mjs exports no tools\. Export tools made with tool\(\)/);
  });

  it("wants a port number after --http, and no unknown options", async () => {
    const { code, err } = await toolwright("mcp", "fixtures/no-tools.mjs", "--http", "web");
    expect(code).toBe(2);
    expect(err).toMatch(/--http takes a port number, got 'web'/);
    const wrong = await toolwright("mcp", "fixtures/no-tools.mjs", "--port", "3000");
    expect(wrong.code).toBe(2);
    expect(wrong.err).toMatch(/Unknown option '--port'/);
  });
});
