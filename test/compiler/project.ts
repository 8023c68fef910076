import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const require = createRequire(import.meta.url);
const TSPC = path.join(path.dirname(require.resolve("ts-patch/package.json")), "bin", "tspc.js");
const TMP = path.resolve(import.meta.dirname, "../.tmp");

/** The result of one `tspc` run. */
export interface BuildResult {
  readonly status: number;
  readonly output: string;
}

/**
 * A throwaway TypeScript project under test/.tmp (so `toolwright` and
 * `@toolwright/compiler` resolve from the test workspace), built by the real `tspc` CLI.
 */
export class TempProject {
  readonly dir: string;

  constructor(name: string, plugin: Record<string, unknown> = {}, compilerOptions: Record<string, unknown> = {}) {
    mkdirSync(TMP, { recursive: true });
    this.dir = mkdtempSync(path.join(TMP, `${name}-`));
    this.write(
      "tsconfig.json",
      JSON.stringify({
        compilerOptions: {
          target: "ES2022",
          module: "NodeNext",
          moduleResolution: "NodeNext",
          strict: true,
          skipLibCheck: true,
          types: [],
          rootDir: "src",
          outDir: "dist",
          plugins: [{ transform: "@toolwright/compiler/transform", ...plugin }],
          ...compilerOptions,
        },
        include: ["src"],
      }),
    );
    this.write("package.json", JSON.stringify({ type: "module", private: true }));
  }

  /** Writes a file of the project and returns its absolute path. */
  write(file: string, text: string): string {
    const full = path.join(this.dir, file);
    mkdirSync(path.dirname(full), { recursive: true });
    writeFileSync(full, text);
    return full;
  }

  /** Runs `tspc -p .` in the project; never throws on a failed build. */
  build(...args: string[]): BuildResult {
    try {
      const output = execFileSync(process.execPath, [TSPC, "-p", ".", ...args], {
        cwd: this.dir,
        encoding: "utf8",
        stdio: ["ignore", "pipe", "pipe"],
      });
      return { status: 0, output };
    } catch (error) {
      const e = error as { status: number; stdout: string; stderr: string };
      return { status: e.status, output: `${e.stdout}${e.stderr}` };
    }
  }

  /** Deletes the project folder. */
  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }

  /** Runs an emitted module with node and returns its stdout. */
  run(file: string): string {
    return execFileSync(process.execPath, [path.join(this.dir, file)], { cwd: this.dir, encoding: "utf8" });
  }
}
