import { type ChildProcess, execFile, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { type BrowserContext, chromium, type Page } from "playwright-core";
import type { RunResult } from "toolwright";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { recordRun } from "./record-run.js";

// The viewer in a real headless browser: Debian's chromium (installed by .ci/run when
// missing), driven by playwright-core, never a downloaded browser.
const run = promisify(execFile);
const bin = fileURLToPath(new URL("../../packages/compiler/dist/cli/bin.js", import.meta.url));
const screenshot = fileURLToPath(new URL("../../docs/viewer.png", import.meta.url));
const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--no-first-run",
  "--disable-sync",
  "--disable-quic",
];

let dir: string;
let finished: RunResult;
let browser: BrowserContext;
let page: Page;
let problems: string[];
let server: ChildProcess | undefined;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "toolwright-view-"));
  ({ finished } = await recordRun());
  writeFileSync(join(dir, "run.json"), JSON.stringify(finished));
  await run(process.execPath, [bin, "view", "run.json"], { cwd: dir });
  // A fresh profile for every run: nothing carries over from another test or person.
  browser = await chromium.launchPersistentContext(join(dir, "profile"), {
    executablePath: "/usr/bin/chromium",
    args: CHROMIUM_ARGS,
    headless: true,
    viewport: { width: 1100, height: 900 },
  });
  page = browser.pages()[0] ?? (await browser.newPage());
  problems = [];
  page.on("console", (m) => {
    if (m.type() === "error") problems.push(`console: ${m.text()}`);
  });
  page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  page.on("requestfailed", (r) => problems.push(`request failed: ${r.url()}`));
});
afterEach(() => {
  server?.kill("SIGTERM");
  server = undefined;
});
afterAll(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

const callIds = () => finished.steps.flatMap((s) => s.calls.map((c) => c.callId));

describe("toolwright view", () => {
  it("writes a page that loads with no console errors and shows every call of the run", async () => {
    await page.goto(pathToFileURL(join(dir, "run.html")).href);
    expect(await page.title()).toBe(`support · ${finished.runId}`);
    const shown = await page
      .locator("details.call")
      .evaluateAll((els) => els.map((e) => e.getAttribute("data-call-id")));
    expect(shown).toEqual(callIds());
    expect(callIds()).toHaveLength(4);
    // One timeline row per turn and per call, each with its duration.
    await expect(page.locator(".timeline .row.turn").count()).resolves.toBe(finished.steps.length);
    await expect(page.locator(".timeline .row.call").count()).resolves.toBe(4);
    await expect(page.locator(".row.usage").count()).resolves.toBe(finished.steps.length);
    expect(await page.locator(".answer").textContent()).toBe(finished.output);
    expect(problems).toEqual([]);
  });

  it("shows a call's arguments when it is expanded", async () => {
    await page.goto(pathToFileURL(join(dir, "run.html")).href);
    const call = page.locator('details.call[data-call-id="call_1_1"]');
    const args = call.locator("pre.args");
    expect(await args.isVisible()).toBe(false);
    await call.locator("summary").click();
    expect(await args.isVisible()).toBe(true);
    expect(JSON.parse((await args.textContent()) ?? "")).toEqual({ sku: "MUG-1", qty: "2" });
    expect(await call.locator("pre.result").textContent()).toBe("MUG-1: 12 in stock");
    if (process.env.UPDATE_SCREENSHOTS) await page.screenshot({ path: screenshot, fullPage: true });
    expect(problems).toEqual([]);
  });

  it("serves the same page on 127.0.0.1 with --serve, until stopped", async () => {
    server = spawn(process.execPath, [bin, "view", "run.json", "--serve"], {
      cwd: dir,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const url = await new Promise<string>((resolve, reject) => {
      let out = "";
      server?.stdout?.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        const found = /http:\/\/127\.0\.0\.1:\d+\//.exec(out);
        if (found) resolve(found[0]);
      });
      server?.once("exit", (code) => reject(new Error(`toolwright view --serve exited with ${code}: ${out}`)));
    });
    await page.goto(url);
    expect(await page.locator("details.call").count()).toBe(4);
    expect(await page.locator("h1").textContent()).toContain("support");
    const exited = new Promise<number | null>((resolve) => server?.once("exit", resolve));
    server.kill("SIGTERM");
    expect(await exited).toBe(0);
    server = undefined;
    expect(problems).toEqual([]);
  });
});
