import { execFile } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CommandIO } from "../../src/cli/command.js";
import { main } from "../../src/cli/index.js";
import { removeTempProject, tempProject } from "../temp-project.js";

// Long commands draw a progress line on a terminal's standard error and write nothing
// extra anywhere else.

const run = promisify(execFile);
const bin = path.resolve(import.meta.dirname, "../../dist/cli/bin.js");
const CLEAR = "\r\u001b[2K";
let root: string;

beforeAll(() => {
  root = tempProject("progress");
  writeFileSync(
    path.join(root, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        target: "ES2022",
        module: "NodeNext",
        moduleResolution: "NodeNext",
        strict: true,
        outDir: "dist",
      },
      include: ["src"],
    }),
  );
  writeFileSync(
    path.join(root, "src", "tools.ts"),
    `import { tool } from "toolwright";\n\n/** Say hello to someone by name. @param name Who to greet. */\nfunction greet(name: string): string {\n  return \`Hello, \${name}\`;\n}\n\nexport const hello = tool(greet);\n`,
  );
});
afterAll(() => removeTempProject(root));

async function inProcess(errIsTTY: boolean, ...args: string[]) {
  let out = "";
  let err = "";
  const io: CommandIO = {
    cwd: root,
    tty: { out: false, err: errIsTTY },
    out: (t) => {
      out += t;
    },
    err: (t) => {
      err += t;
    },
  };
  return { code: await main(args, io), out, err };
}

describe("progress of long commands", () => {
  for (const command of ["gen", "check"] as const) {
    it(`toolwright ${command} draws its progress on a terminal and clears it before its own output`, async () => {
      const args = command === "check" ? ["check", "--update"] : ["gen"];
      const { code, out, err } = await inProcess(true, ...args);
      expect(code).toBe(0);
      expect(err.startsWith(`${CLEAR}toolwright ${command}: reading the project`)).toBe(true);
      expect(err.endsWith(CLEAR)).toBe(true);
      expect(out).toMatch(/^wrote 1 tool/);
    });

    it(`toolwright ${command} writes no progress when standard error is not a terminal`, async () => {
      const args = command === "check" ? ["check", "--update"] : ["gen"];
      const { code, err } = await inProcess(false, ...args);
      expect(code).toBe(0);
      expect(err).toBe("");
    });
  }

  it("toolwright build stays quiet when standard error is not a terminal", async () => {
    const { code, out, err } = await inProcess(false, "build");
    expect(code).toBe(0);
    expect(out + err).toBe("");
  }, 120_000);

  it("toolwright build draws progress under a real terminal", async () => {
    // \`script\` gives the process a pseudo-terminal, as a person's shell would.
    const command = `${JSON.stringify(process.execPath)} ${JSON.stringify(bin)} build`;
    const tty = await run("script", ["-qec", command, "/dev/null"], { cwd: root });
    expect(tty.stdout).toContain(`${CLEAR}toolwright build: reading the project`);
    expect(tty.stdout.endsWith(CLEAR)).toBe(true);
  }, 120_000);
});
