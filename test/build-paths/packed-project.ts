import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";

const ROOT = path.resolve(import.meta.dirname, "../..");
const PACK = path.join(ROOT, "scripts/pack.mjs");
const exec = promisify(execFile);

/**
 * This process's environment without the `npm_*` variables a package manager sets for the
 * script it runs (`npm test` runs pnpm, which runs Vitest): a user's shell has none of them,
 * and npm reads them as its own config (warning about pnpm's keys, taking pnpm's user agent).
 */
export function userEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key)));
  return { ...env, ...extra };
}

/** The output of a finished command. */
export interface CommandOutput {
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * An outside project in its own temporary folder, holding the packed `toolwright` and
 * `@toolwright/compiler` tarballs, installed with npm as a user would.
 */
export class PackedProject {
  readonly dir = mkdtempSync(path.join(tmpdir(), "toolwright-packed-"));
  #tarballs: { runtime: string; compiler: string } | undefined;

  /** Packs both packages into the project folder, by the release path (`scripts/pack.mjs`, pnpm pack underneath). */
  async pack(): Promise<{ runtime: string; compiler: string }> {
    if (!this.#tarballs) {
      // The packages are built already (the test command builds them first; other tests read dist/).
      const { stdout } = await this.run(process.execPath, [PACK, "--no-build", "--out", this.dir], ROOT);
      const [runtime, compiler] = stdout
        .trim()
        .split("\n")
        .map((file) => `file:./${path.basename(file)}`);
      if (!runtime || !compiler) throw new Error(`scripts/pack.mjs printed no tarballs:\n${stdout}`);
      this.#tarballs = { runtime, compiler };
    }
    return this.#tarballs;
  }

  write(file: string, text: string): void {
    mkdirSync(path.dirname(path.join(this.dir, file)), { recursive: true });
    writeFileSync(path.join(this.dir, file), text);
  }

  /** Runs a command in the project (or `cwd`, with `env` added to the user's, see userEnv); a failure throws with its output. */
  async run(
    command: string,
    args: readonly string[],
    cwd = this.dir,
    env: NodeJS.ProcessEnv = {},
  ): Promise<CommandOutput> {
    try {
      const { stdout, stderr } = await exec(command, args, {
        cwd,
        env: userEnv(env),
        encoding: "utf8",
        maxBuffer: 16 * 1024 * 1024,
      });
      return { stdout, stderr };
    } catch (error) {
      const e = error as { stdout?: string; stderr?: string; message: string };
      throw new Error(`${command} ${args.join(" ")} failed in ${cwd}:\n${e.stdout ?? ""}\n${e.stderr ?? e.message}`);
    }
  }

  /** `npm install` of the project's package.json, output kept so callers can look for warnings. */
  install(): Promise<CommandOutput> {
    return this.run("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=warn"]);
  }

  /** Runs a file of the project with this Node. */
  async node(...args: string[]): Promise<string> {
    return (await this.run(process.execPath, args)).stdout;
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}
