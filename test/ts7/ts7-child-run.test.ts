import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type ChildChoice, childWorthIt } from "../../packages/compiler/src/cli/ts7-child-run.js";
import { removeTempProject } from "../../packages/compiler/test/temp-project.js";
import { CLI, projectWith, TS7, toolwright, tsconfig } from "./project.js";

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) removeTempProject(root);
});

function project(name: string, files: Record<string, string>): string {
  const root = projectWith(name, TS7, { "tsconfig.json": tsconfig(), ...files });
  roots.push(root);
  return root;
}

const tools = (n: number) =>
  [
    'import { tool } from "toolwright";',
    ...Array.from(
      { length: n },
      (_, i) =>
        `/** Reads row ${i}. @param id the row */\nexport const read${i} = tool(function read${i}(id: string): string { return id; });`,
    ),
  ].join("\n");

const twoCores: ChildChoice = { cores: 2, execArgv: [], env: {} };

describe("where a cold TypeScript 7 run derives", () => {
  // 600 KB of source: above the size where the child's start pays off.
  const big = project("child-big", { "src/tools.ts": `${tools(1)}\n// ${"x".repeat(600 * 1024)}\n` });
  const small = project("child-small", { "src/tools.ts": tools(1) });

  it("goes to the child on two cores when the project's sources are large", () => {
    expect(childWorthIt(big, undefined, twoCores)).toBe(true);
    expect(childWorthIt(big, undefined, { ...twoCores, cores: 1 })).toBe(true);
  });

  it("stays in this process for a small project, more cores, or a pool size the user chose", () => {
    expect(childWorthIt(small, undefined, twoCores)).toBe(false);
    expect(childWorthIt(big, undefined, { ...twoCores, cores: 4 })).toBe(false);
    expect(childWorthIt(big, undefined, { ...twoCores, execArgv: ["--v8-pool-size=2"] })).toBe(false);
    expect(childWorthIt(big, undefined, { ...twoCores, env: { NODE_OPTIONS: "--v8-pool-size=8" } })).toBe(false);
  });

  it("counts neither the generated module, node_modules, dot folders nor declaration files", () => {
    const root = project("child-counted", { "src/tools.ts": tools(1) });
    const filler = `// ${"x".repeat(600 * 1024)}\n`;
    writeFileSync(path.join(root, "src", "toolwright.gen.ts"), filler);
    writeFileSync(path.join(root, "src", "big.d.ts"), filler);
    for (const folder of ["node_modules/dep", ".cache"]) {
      mkdirSync(path.join(root, folder), { recursive: true });
      writeFileSync(path.join(root, folder, "index.ts"), filler);
    }
    expect(childWorthIt(root, path.join(root, "src", "toolwright.gen.ts"), twoCores)).toBe(false);
    // The same text in a file the run derives counts.
    writeFileSync(path.join(root, "src", "more.ts"), filler);
    expect(childWorthIt(root, path.join(root, "src", "toolwright.gen.ts"), twoCores)).toBe(true);
  });

  it("follows TOOLWRIGHT_COLD_CHILD over every other reason", () => {
    expect(childWorthIt(small, undefined, { ...twoCores, env: { TOOLWRIGHT_COLD_CHILD: "1" } })).toBe(true);
    expect(childWorthIt(big, undefined, { ...twoCores, env: { TOOLWRIGHT_COLD_CHILD: "0" } })).toBe(false);
  });
});

describe("a cold gen in the child process", () => {
  const root = project("child-run", { "src/a.ts": tools(3), "src/b.ts": tools(2).replaceAll("read", "list") });
  // Logs every Node process the CLI starts, with its flags; the child inherits the hook.
  const log = path.join(root, "processes.log");
  const hook = path.join(root, "log-process.mjs");
  writeFileSync(
    hook,
    `import { appendFileSync } from "node:fs";\nappendFileSync(${JSON.stringify(log)}, JSON.stringify(process.execArgv) + "\\n");\n` +
      `const child = process.execArgv.includes("--v8-pool-size=1");\n` +
      `if (process.env.CRASH_CHILD && child) process.exit(3);\n` +
      // A child whose exit takes long: it writes its pid, then blocks in its exit handler.
      // The parent logs the kind of every reply its child sends; the child, every module it writes.
      `if (process.env.REPLIES && !child) {\n` +
      `  const cp = await import("node:child_process");\n` +
      `  const fork = cp.fork;\n` +
      `  cp.default.fork = (...args) => {\n` +
      `    const forked = fork(...args);\n` +
      `    forked.on("message", (reply) => appendFileSync(process.env.REPLIES, JSON.stringify([Object.keys(reply)[0], reply.result?.file]) + "\\n"));\n` +
      `    return forked;\n` +
      `  };\n` +
      `  (await import("node:module")).syncBuiltinESMExports();\n` +
      `}\n` +
      `if (process.env.REPLIES && child) {\n` +
      `  const fs = await import("node:fs");\n` +
      `  const write = fs.writeFileSync;\n` +
      `  fs.default.writeFileSync = (file, ...rest) => {\n` +
      `    if (String(file).endsWith(".gen.ts")) appendFileSync(process.env.REPLIES, JSON.stringify(["child wrote", String(file)]) + "\\n");\n` +
      `    return write(file, ...rest);\n` +
      `  };\n` +
      `  (await import("node:module")).syncBuiltinESMExports();\n` +
      `}\n` +
      // A child that stops right after it has sent its first file's result.
      `if (process.env.CRASH_AFTER_RESULT && child) {\n` +
      `  const send = process.send.bind(process);\n` +
      `  process.send = (reply, ...rest) => {\n` +
      `    const sent = send(reply, ...rest);\n` +
      `    if (reply.result) {\n` +
      `      appendFileSync(process.env.CRASH_AFTER_RESULT, reply.result.file + "\\n");\n` +
      `      process.exit(4);\n` +
      `    }\n` +
      `    return sent;\n` +
      `  };\n` +
      `}\n` +
      `if (process.env.SLOW_EXIT && child) {\n` +
      `  appendFileSync(process.env.SLOW_EXIT, String(process.pid));\n` +
      `  process.on("exit", () => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 60000));\n` +
      `}\n`,
  );
  const gen = (out: string, env: Record<string, string>, extra: string[] = []) =>
    toolwright(root, ["gen", "--out", out, "--timing", ...extra], ["--import", hook], env);

  it("writes the module the in-process run writes, from a Node with one V8 background thread", async () => {
    const inProcess = await gen("in-process.gen.ts", { TOOLWRIGHT_COLD_CHILD: "0" }, ["--no-cache"]);
    expect(inProcess.code).toBe(0);
    expect(inProcess.err).not.toContain("child");
    writeFileSync(log, "");
    const child = await gen("src/toolwright.gen.ts", { TOOLWRIGHT_COLD_CHILD: "1" });
    expect(child.code).toBe(0);
    expect(child.out).toContain("wrote 5 tool specs to src/toolwright.gen.ts");
    expect(child.err).toMatch(/2 of 2 files derived, .*; in a child Node process with one V8 background thread\n/);
    const processes = readFileSync(log, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as string[]);
    expect(processes).toHaveLength(2);
    expect(processes[0]).not.toContain("--v8-pool-size=1");
    expect(processes[1]).toEqual(["--import", hook, "--v8-pool-size=1"]);
    expect(readFileSync(path.join(root, "src", "toolwright.gen.ts"), "utf8")).toBe(
      readFileSync(path.join(root, "in-process.gen.ts"), "utf8"),
    );
  });

  it("saves the cache the next run answers from, in this process", async () => {
    writeFileSync(log, "");
    const next = await gen("src/toolwright.gen.ts", { TOOLWRIGHT_COLD_CHILD: "1" });
    expect(next.code).toBe(0);
    expect(next.err).toContain("0 of 2 files derived, 0 requests (answered from the cache, no TypeScript started)");
    expect(readFileSync(log, "utf8").trim().split("\n")).toHaveLength(1);
  });

  it("derives there, sending each file's result as it comes; this process renders and writes the module", async () => {
    const replies = path.join(root, "replies.log");
    writeFileSync(replies, "");
    const run = await gen("streamed.gen.ts", { TOOLWRIGHT_COLD_CHILD: "1", REPLIES: replies }, ["--no-cache"]);
    expect(run.code).toBe(0);
    const logged = readFileSync(replies, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as [string, string | undefined]);
    expect(logged.at(-1)).toEqual(["derived", null]);
    const results = logged.slice(0, -1);
    expect(results.every(([kind]) => kind === "result")).toBe(true);
    expect(results.map(([, file]) => path.relative(root, file ?? ""))).toEqual(
      expect.arrayContaining([path.join("src", "a.ts"), path.join("src", "b.ts")]),
    );
    expect(readFileSync(path.join(root, "streamed.gen.ts"), "utf8")).toBe(
      readFileSync(path.join(root, "in-process.gen.ts"), "utf8"),
    );
  });

  it("reports a project's problems as this process does: the same diagnostics, lines and exit code", async () => {
    const broken = project("child-problems", {
      "tsconfig.json": tsconfig().replace('"strict":true', '"strict":true,"noSuchOption":true'),
      "src/tools.ts": `${tools(1)}\n/** Takes a callback. */\nexport const bad = tool(function bad(done: () => void): void { done(); });\n`,
    });
    const here = await toolwright(broken, ["gen", "--no-cache"], [], { TOOLWRIGHT_COLD_CHILD: "0" });
    expect(here.code).toBe(1);
    expect(here.err).toContain("error TS5023: Unknown compiler option 'noSuchOption'.");
    expect(here.err).toContain("src/tools.ts(5,38): error TS990001:");
    const there = await toolwright(broken, ["gen", "--no-cache"], [], { TOOLWRIGHT_COLD_CHILD: "1" });
    expect(there).toEqual(here);
  });

  it("ends once the child has answered, without waiting for the child's exit", async () => {
    const pidFile = path.join(root, "slow-child.pid");
    const cli = spawn(process.execPath, ["--import", hook, CLI, "gen", "--out", "slow.gen.ts", "--no-cache"], {
      cwd: root,
      env: { ...process.env, TOOLWRIGHT_COLD_CHILD: "1", SLOW_EXIT: pidFile },
      stdio: "ignore",
    });
    const [code] = await once(cli, "exit");
    const pid = Number(readFileSync(pidFile, "utf8"));
    // The child is still in its exit handler: signal 0 finds it, and this test ends it.
    expect(() => process.kill(pid, 0)).not.toThrow();
    process.kill(pid, "SIGKILL");
    expect(code).toBe(0);
    expect(readFileSync(path.join(root, "slow.gen.ts"), "utf8")).toBe(
      readFileSync(path.join(root, "in-process.gen.ts"), "utf8"),
    );
  });

  it("fails the run, naming the child, when the child stops before it answers", async () => {
    const crashed = await gen("crashed.gen.ts", { TOOLWRIGHT_COLD_CHILD: "1", CRASH_CHILD: "1" }, ["--no-cache"]);
    expect(crashed.code).toBe(1);
    expect(crashed.err).toContain("toolwright gen: its child process stopped (exit code 3) before it finished.");
  });

  it("fails the run and leaves the module as it was when the child stops after sending a file's result", async () => {
    const out = path.join(root, "kept.gen.ts");
    writeFileSync(out, "// an earlier module\n");
    const sent = path.join(root, "sent.log");
    writeFileSync(sent, "");
    const crashed = await gen("kept.gen.ts", { TOOLWRIGHT_COLD_CHILD: "1", CRASH_AFTER_RESULT: sent }, ["--no-cache"]);
    expect(readFileSync(sent, "utf8").trim().split("\n")).toHaveLength(1);
    expect(crashed.code).toBe(1);
    expect(crashed.err).toContain("toolwright gen: its child process stopped (exit code 4) before it finished.");
    expect(crashed.out).not.toContain("wrote");
    expect(readFileSync(out, "utf8")).toBe("// an earlier module\n");
  });

  it("checks the module against what the child derived: up to date, or out of date and left alone", async () => {
    const current = await gen("in-process.gen.ts", { TOOLWRIGHT_COLD_CHILD: "1" }, ["--no-cache", "--check"]);
    expect(current.code).toBe(0);
    expect(current.out).toContain("in-process.gen.ts is up to date (5 tools).");
    expect(current.err).toContain("in a child Node process with one V8 background thread");
    const stale = path.join(root, "stale.gen.ts");
    const edited = `${readFileSync(path.join(root, "in-process.gen.ts"), "utf8")}// edited\n`;
    writeFileSync(stale, edited);
    const checked = await gen("stale.gen.ts", { TOOLWRIGHT_COLD_CHILD: "1" }, ["--no-cache", "--check"]);
    expect(checked.code).toBe(1);
    expect(checked.err).toContain("stale.gen.ts is out of date; run 'toolwright gen' and commit it.");
    expect(readFileSync(stale, "utf8")).toBe(edited);
  });

  it("builds on TypeScript 7 as this process does: the same output, exit code and emitted files", async () => {
    const broken = project("child-build", {
      "tsconfig.json": tsconfig().replace('"types":[]', '"types":[],"rootDir":"src","outDir":"dist"'),
      "src/tools.ts": `${tools(2)}\nexport const count: number = "three";\n`,
    });
    const here = await toolwright(broken, ["build"], [], { TOOLWRIGHT_COLD_CHILD: "0" });
    expect(here.code).toBe(2);
    expect(here.err).toContain("error TS2322: Type 'string' is not assignable to type 'number'.");
    const emitted = readFileSync(path.join(broken, "dist", "tools.js"), "utf8");
    const there = await toolwright(broken, ["build"], ["--import", hook], { TOOLWRIGHT_COLD_CHILD: "1" });
    expect(there).toEqual(here);
    expect(readFileSync(path.join(broken, "dist", "tools.js"), "utf8")).toBe(emitted);
    const last = readFileSync(log, "utf8").trim().split("\n").at(-1);
    expect(JSON.parse(last ?? "[]")).toEqual(["--import", hook, "--v8-pool-size=1"]);
  });
});
