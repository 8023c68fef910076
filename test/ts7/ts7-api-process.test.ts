import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadTs7 } from "../../packages/compiler/src/backend/ts7/ts7-api.js";
import { type ApiProcessSettings, StartedApi } from "../../packages/compiler/src/backend/ts7/ts7-api-process.js";
import { Ts7Session } from "../../packages/compiler/src/backend/ts7/ts7-session.js";
import { removeTempProject } from "../../packages/compiler/test/temp-project.js";
import { projectWith, TS7, tsconfig } from "./project.js";

// TypeScript 7's API process started before the API client's other modules and the
// derivation's load, with the project's load already asked for: the API object built later
// around it must derive exactly what a process started the plain way derives.

const TOOLS = `import { tool } from "toolwright";

/**
 * Current temperature in a city.
 * @param city City name, e.g. "Oslo".
 * @param unit Unit of the answer.
 */
function getTemperature(city: string, unit: "celsius" | "fahrenheit" = "celsius"): number {
  return unit === "celsius" ? city.length : city.length * 2;
}

export const temperature = tool(getTemperature);
`;

const VERSION = loadTs7(TS7).version;
const roots: string[] = [];
afterAll(() => {
  for (const root of roots) removeTempProject(root);
});

function project(name: string): { root: string; settings: ApiProcessSettings } {
  const root = projectWith(name, TS7, { "tsconfig.json": tsconfig() });
  roots.push(root);
  writeFileSync(path.join(root, "src", "tools.ts"), TOOLS);
  return { root, settings: { cwd: root, tsconfig: path.join(root, "tsconfig.json") } };
}

/** The specs a session derives from its first snapshot, by file. */
function specsOf(session: Ts7Session): unknown {
  try {
    const snapshot = session.open();
    const files = snapshot.fileNames.flatMap((name) => snapshot.backend.sourceFile(name) ?? []);
    const derived = snapshot.derivation.deriveFiles(files, {});
    return [...derived].map(([file, result]) => ({
      file: path.basename(file),
      specs: result.sites.map((site) => site.spec),
      findings: result.findings.map((f) => [f.start, f.code, f.messageText]),
    }));
  } finally {
    session.close();
  }
}

/**
 * The TypeScript API processes running for the project at `root` (each started with
 * `--api --cwd <root>`; ended ones not yet reaped left out): every test has a folder of its own.
 */
function apiProcesses(root: string): number {
  const out = execFileSync("ps", ["-eo", "stat=,args="], { encoding: "utf8" });
  const started = (line: string) => !line.trim().startsWith("Z") && `${line} `.includes(`--api --cwd ${root} `);
  return out.split("\n").filter(started).length;
}

/** The environment of the API process running for the project at `root` (Linux: /proc/<pid>/environ). */
function apiEnvironment(root: string): Record<string, string> {
  const out = execFileSync("ps", ["-eo", "pid=,stat=,args="], { encoding: "utf8" });
  const line = out.split("\n").find((l) => !/^\s*\d+\s+Z/.test(l) && `${l} `.includes(`--api --cwd ${root} `));
  const pid = line?.trim().split(/\s+/)[0];
  if (!pid) throw new Error(`no API process runs for ${root}`);
  const pairs = readFileSync(`/proc/${pid}/environ`, "utf8").split("\0").filter(Boolean);
  return Object.fromEntries(pairs.map((pair) => [pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1)]));
}

describe("the API process's environment", () => {
  const saved = { GOGC: process.env.GOGC, GOMEMLIMIT: process.env.GOMEMLIMIT };
  const restore = () => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };

  it("runs Go's collector less often, within half the memory, in a process that answers one run", () => {
    delete process.env.GOGC;
    delete process.env.GOMEMLIMIT;
    try {
      const { root, settings } = project("ts7-env-one-run");
      const started = StartedApi.start(TS7, VERSION, { ...settings, oneRun: true }) as StartedApi;
      try {
        const env = apiEnvironment(root);
        expect(env.GOGC).toBe("400");
        expect(env.GOMEMLIMIT).toMatch(/^[1-9]\d*MiB$/);
        // This process's own environment is as it was.
        expect(process.env.GOGC).toBeUndefined();
        expect(process.env.GOMEMLIMIT).toBeUndefined();
      } finally {
        started.close();
      }
      // A long-lived process (gen --watch, the editor's) keeps Go's defaults.
      const other = project("ts7-env-long-lived");
      const session = new Ts7Session(loadTs7(TS7), other.settings);
      try {
        expect(apiEnvironment(other.root).GOGC).toBeUndefined();
      } finally {
        session.close();
      }
    } finally {
      restore();
    }
  });

  it("keeps the user's own GOGC and GOMEMLIMIT", () => {
    process.env.GOGC = "50";
    process.env.GOMEMLIMIT = "512MiB";
    try {
      const { root, settings } = project("ts7-env-users");
      const session = new Ts7Session(loadTs7(TS7), { ...settings, oneRun: true });
      try {
        expect(apiEnvironment(root)).toMatchObject({ GOGC: "50", GOMEMLIMIT: "512MiB" });
      } finally {
        session.close();
      }
    } finally {
      restore();
    }
  });
});

describe("StartedApi", () => {
  it("derives through the started process exactly what a process started the plain way derives", async () => {
    const { settings } = project("ts7-started-same");
    const modules = loadTs7(TS7);
    const plain = specsOf(new Ts7Session(modules, settings));
    const started = StartedApi.start(TS7, VERSION, settings);
    expect(started).toBeDefined();
    // Modules load between the start and the take-over: the event loop turns while answers arrive.
    await new Promise((done) => setTimeout(done, 300));
    const early = specsOf(new Ts7Session(modules, started as StartedApi));
    expect(early).toEqual(plain);
    expect(JSON.stringify(early)).toContain('"getTemperature"');
  });

  it("takes the started process over rather than starting another", () => {
    const { root, settings } = project("ts7-started-one-process");
    const started = StartedApi.start(TS7, VERSION, settings) as StartedApi;
    expect(apiProcesses(root)).toBe(1);
    const session = new Ts7Session(loadTs7(TS7), started);
    try {
      expect(apiProcesses(root)).toBe(1);
      expect(session.open().fileNames.map((name) => path.basename(name))).toEqual(["tools.ts"]);
    } finally {
      session.close();
    }
  });

  it("reads files through the overlay while the project loads, before the client reads any answer", () => {
    const { root, settings } = project("ts7-started-overlay");
    const tools = path.join(root, "src", "tools.ts");
    const edited = TOOLS.replace("Current temperature", "Today's temperature");
    const started = StartedApi.start(TS7, VERSION, {
      ...settings,
      overlay: (fileName) => (fileName === tools ? edited : undefined),
    }) as StartedApi;
    const session = new Ts7Session(loadTs7(TS7), started);
    try {
      expect(session.open().backend.sourceFile(tools)?.text).toBe(edited);
    } finally {
      session.close();
    }
  });

  it("names the request asked before the project's load was answered", () => {
    const { settings } = project("ts7-started-order");
    const started = StartedApi.start(TS7, VERSION, settings) as StartedApi;
    const api = started.adopt(loadTs7(TS7).sync);
    try {
      expect(() => api?.parseConfigFile(settings.tsconfig)).toThrow(
        "the early-started TypeScript API process was asked parseConfigFile before updateSnapshot",
      );
    } finally {
      api?.close();
    }
  });

  it("ends a process never taken over", async () => {
    const { root, settings } = project("ts7-started-closed");
    const started = StartedApi.start(TS7, VERSION, settings) as StartedApi;
    expect(apiProcesses(root)).toBe(1);
    started.close();
    // The kill is sent at once; the process ends as soon as the kernel delivers it.
    for (let tries = 0; apiProcesses(root) > 0 && tries < 100; tries++)
      await new Promise((done) => setTimeout(done, 20));
    expect(apiProcesses(root)).toBe(0);
  });

  it("starts nothing on a release whose client it was not written against", () => {
    const { root, settings } = project("ts7-started-other-release");
    expect(StartedApi.start(TS7, "7.0.3", settings)).toBeUndefined();
    expect(apiProcesses(root)).toBe(0);
  });

  it("starts nothing on Windows, whose client talks over a named pipe rather than the child's stdio", () => {
    const { root, settings } = project("ts7-started-windows");
    const platform = Object.getOwnPropertyDescriptor(process, "platform") as PropertyDescriptor;
    Object.defineProperty(process, "platform", { value: "win32" });
    try {
      expect(StartedApi.start(TS7, VERSION, settings)).toBeUndefined();
    } finally {
      Object.defineProperty(process, "platform", platform);
    }
    expect(apiProcesses(root)).toBe(0);
  });
});
