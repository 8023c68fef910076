import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import type { Agent, RunState } from "toolwright";
import { FakeModel } from "toolwright/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LabAgentOptions } from "../src/agent.js";
import type { LabDeps, LabValue } from "../src/lab.js";

const root = fileURLToPath(new URL("..", import.meta.url));
let out: string;
let labAgent: (model: FakeModel, options?: LabAgentOptions) => Agent<LabDeps>;
let LabBusyError: new (message: string) => Error;

beforeAll(async () => {
  // Built for real into a folder of this run's own (git-ignored, so "toolwright" still
  // resolves from the example), never into the shared dist/: two runs at once cannot collide.
  mkdirSync(`${root}.tmp`, { recursive: true });
  out = mkdtempSync(`${root}.tmp/test-build-`);
  execFileSync(`${root}node_modules/.bin/tspc`, ["-p", "tsconfig.build.json", "--outDir", out], {
    cwd: root,
    stdio: "pipe",
  });
  ({ labAgent } = await import(`${out}/agent.js`));
  ({ LabBusyError } = await import(`${out}/lab.js`));
});

afterAll(() => {
  rmSync(out, { recursive: true, force: true });
});

function deps(busyTimes: number) {
  const calls = { panel: 0, imagingAborted: false };
  const cbc: LabValue[] = [{ analyte: "hemoglobin", value: 10.1, unit: "g/dL" }];
  const d: LabDeps = {
    lab: {
      panel: async () => {
        calls.panel++;
        if (calls.panel <= busyTimes) throw new LabBusyError("503 from lab gateway");
        return cbc;
      },
    },
    imaging: {
      report: (_id, signal) =>
        new Promise((_, reject) =>
          signal.addEventListener("abort", () => {
            calls.imagingAborted = true;
            reject(signal.reason);
          }),
        ),
    },
    ranges: new Map([["hemoglobin", { low: 12, high: 16 }]]),
  };
  return { d, calls };
}

const fast = { toolRetry: { maxAttempts: 3, initialBackoffMs: 1 }, imagingTimeoutMs: 20 };

describe("lab results", () => {
  it("retries the busy lab API (a retryable ToolError of a readOnly tool) before the model sees anything", async () => {
    const { d, calls } = deps(2);
    const model = FakeModel.script([
      { toolCalls: [{ name: "fetchPanel", args: { patientId: "P-1001", panel: "cbc" } }] },
      "Hemoglobin 10.1 g/dL.",
    ]);
    const result = await labAgent(model, fast).run("CBC for P-1001?", { deps: d });
    expect(calls.panel).toBe(3);
    expect(model.requests[1]?.messages.at(-1)).toMatchObject({
      outcome: "ok",
      content: '[{"analyte":"hemoglobin","value":10.1,"unit":"g/dL"}]',
    });
    expect(result.steps[0]?.calls[0]?.attempts).toBe(3);
  });

  it("tells the model the lab is busy once the attempts are used up", async () => {
    const { d, calls } = deps(10);
    const model = FakeModel.script([
      { toolCalls: [{ name: "fetchPanel", args: { patientId: "P-1", panel: "bmp" } }] },
      "Could not fetch.",
    ]);
    await labAgent(model, fast).run("BMP?", { deps: d });
    expect(calls.panel).toBe(3);
    expect(model.requests[1]?.messages.at(-1)).toMatchObject({
      outcome: "tool_error",
      content: "The lab system is busy.",
    });
  });

  it("stops a slow imaging report at its time limit, aborting the request, and says so", async () => {
    const { d, calls } = deps(0);
    const model = FakeModel.script([
      { toolCalls: [{ name: "fetchImagingReport", args: { studyId: "S-77" } }] },
      "Imaging pending.",
    ]);
    await labAgent(model, fast).run("Imaging?", { deps: d });
    expect(calls.imagingAborted).toBe(true);
    expect(model.requests[1]?.messages.at(-1)).toMatchObject({ outcome: "timeout" });
    expect(model.requests[1]?.messages.at(-1)?.content).toMatch(/did not finish within 20 ms/);
  });

  it("keeps an internal failure's details out of the conversation (return_generic) but in the run's record", async () => {
    const { d } = deps(0);
    const model = FakeModel.script([
      {
        toolCalls: [
          { name: "flagValue", args: { analyte: "hemoglobin", value: 10.1 } },
          { name: "flagValue", args: { analyte: "troponin", value: 0.2 } },
        ],
      },
      "Hemoglobin is low; troponin could not be assessed.",
    ]);
    const result = await labAgent(model, fast).run("Flag these", { deps: d });
    const shown = model.requests[1]?.messages.filter((m) => m.role === "tool") ?? [];
    expect(shown.map((m) => [m.outcome, m.content])).toEqual([
      ["ok", "low"],
      ["tool_error", expect.stringMatching(/internal error/)],
    ]);
    expect(JSON.stringify(model.requests)).not.toMatch(/10\.0\.4\.12|lab_ranges_v3/);
    expect(result.steps[0]?.calls[1]?.detail).toMatch(/lab_ranges_v3 has no row for "troponin"/);
  });

  describe("guidelines from the web (capabilities, egress allowlist, trifecta)", () => {
    let server: Server;
    let site: string;
    const hits: string[] = [];
    beforeAll(async () => {
      server = createServer((req, res) => {
        hits.push(req.url ?? "");
        res.writeHead(200, { "content-type": "text/plain" }).end("Hemoglobin, adult women: 12.0-15.5 g/dL.");
      });
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      site = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    });

    it("carries the capabilities and the URL argument the TSDoc declares", () => {
      const tools = labAgent(FakeModel.script([])).tools;
      expect(tools.get("fetchPanel")?.capabilities).toEqual(["private_data"]);
      expect(tools.get("readGuideline")).toMatchObject({ capabilities: ["untrusted_content"], egress: "url" });
    });

    it("pauses a guideline read after a patient's results for a clinician, and reads it once approved", async () => {
      const model = FakeModel.script([
        { toolCalls: [{ id: "p", name: "fetchPanel", args: { patientId: "P-1001", panel: "cbc" } }] },
        { toolCalls: [{ id: "g", name: "readGuideline", args: { url: `${site}/hemoglobin` } }] },
        "Hemoglobin 10.1 g/dL is below the adult range.",
      ]);
      const agent = labAgent(model, { ...fast, guidelineSites: [site] });
      const paused = await agent.run("Summarise P-1001's blood count.", { deps: deps(0).d });
      expect(paused.interruptions).toEqual([
        {
          callId: "g",
          toolName: "readGuideline",
          args: { url: `${site}/hemoglobin` },
          reason:
            "readGuideline would give this run private data (fetchPanel), untrusted content (readGuideline) and a way " +
            "to send data out (readGuideline): untrusted content could steer private data out.",
        },
      ]);
      expect(hits).toEqual([]);
      const done = await agent.run((paused.state as RunState).approve("g"), { deps: deps(0).d });
      expect(hits).toEqual(["/hemoglobin"]);
      expect(done.output).toBe("Hemoglobin 10.1 g/dL is below the adult range.");
    });

    it("refuses a guideline URL off the allowlist without fetching it", async () => {
      const model = FakeModel.script([
        { toolCalls: [{ id: "g", name: "readGuideline", args: { url: "http://169.254.169.254/latest/meta-data/" } }] },
        "I could not read that page.",
      ]);
      const result = await labAgent(model, { ...fast, guidelineSites: [site] }).run("Read the guideline.", {
        deps: deps(0).d,
      });
      expect(result.steps[0]?.calls[0]).toMatchObject({ outcome: "rejected" });
      expect(result.steps[0]?.calls[0]?.content).toMatch(
        /^Not run: readGuideline may not reach the "url" given: its host is the IP address 169\.254\.169\.254, in link-local/,
      );
    });
  });
});
