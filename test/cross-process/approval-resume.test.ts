import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";

const run = promisify(execFile);
const programs = fileURLToPath(new URL("./programs/", import.meta.url));
const dirs: string[] = [];

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function node(program: string, dir: string, env: Record<string, string> = {}) {
  const { stdout } = await run(process.execPath, [join(programs, program), dir], {
    env: { ...process.env, ...env },
    timeout: 30_000,
  });
  return JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}");
}

function lines(file: string): string[] {
  try {
    return readFileSync(file, "utf8").trim().split("\n").filter(Boolean);
  } catch {
    return [];
  }
}

describe("approval across processes", () => {
  for (const secret of ["", "cross-process-secret"]) {
    it(`process A pauses and saves the state; process B approves and finishes; the side effect runs once${secret ? " (HMAC-signed)" : ""}`, async () => {
      const dir = mkdtempSync(join(tmpdir(), "toolwright-xproc-"));
      dirs.push(dir);
      const env: Record<string, string> = secret ? { STATE_SECRET: secret } : {};

      const a = await node("run-until-approval.mjs", dir, env);
      expect(a.interruptions).toEqual([{ callId: "call_1_1", toolName: "cancelOrder", args: { id: "A-771" } }]);
      expect(lines(join(dir, "cancel.log"))).toEqual([]);
      expect(lines(join(dir, "lookup.log"))).toEqual(["call_1_0"]);

      const b = await node("approve-and-finish.mjs", dir, env);
      expect(b.pid).not.toBe(a.pid);
      expect(b.status).toBe("completed");
      expect(b.output).toBe("Done (lookupOrder:ok, cancelOrder:ok).");

      const cancels = lines(join(dir, "cancel.log"));
      expect(cancels).toHaveLength(1);
      expect(cancels[0]).toMatch(new RegExp(`^call_1_1 A-771 pid=${b.pid}$`));
      // The read-only lookup finished in A and was not run again in B.
      expect(lines(join(dir, "lookup.log"))).toEqual(["call_1_0"]);
    });
  }

  it("process B refuses a state edited on disk, and nothing runs", async () => {
    const dir = mkdtempSync(join(tmpdir(), "toolwright-xproc-"));
    dirs.push(dir);
    await node("run-until-approval.mjs", dir);
    const file = join(dir, "state.json");
    writeFileSync(file, readFileSync(file, "utf8").replace('{\\"id\\":\\"A-771\\"}', '{\\"id\\":\\"A-999\\"}'));
    await expect(node("approve-and-finish.mjs", dir)).rejects.toThrow(/RunStateError|integrity/);
    expect(lines(join(dir, "cancel.log"))).toEqual([]);
  });
});
