import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";

const ROOT = path.resolve(import.meta.dirname, "../..");
const PNPM = path.join(ROOT, ".tools/node_modules/.bin/pnpm");
const exec = promisify(execFile);

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

  /** Packs both packages into the project folder (pnpm pack turns `workspace:` into versions). */
  async pack(): Promise<{ runtime: string; compiler: string }> {
    if (!this.#tarballs) {
      const packed = async (pkg: string, pattern: RegExp): Promise<string> => {
        await this.run(PNPM, ["pack", "--pack-destination", this.dir], path.join(ROOT, "packages", pkg));
        const file = readdirSync(this.dir).find((f) => pattern.test(f) && f.endsWith(".tgz"));
        if (!file) throw new Error(`pnpm pack of packages/${pkg} produced no tarball in ${this.dir}`);
        return `file:./${file}`;
      };
      this.#tarballs = {
        runtime: await packed("runtime", /^toolwright-\d/),
        compiler: await packed("compiler", /^toolwright-compiler-\d/),
      };
    }
    return this.#tarballs;
  }

  write(file: string, text: string): void {
    mkdirSync(path.dirname(path.join(this.dir, file)), { recursive: true });
    writeFileSync(path.join(this.dir, file), text);
  }

  /** Runs a command in the project (or `cwd`); a failure throws with its output. */
  async run(command: string, args: readonly string[], cwd = this.dir): Promise<CommandOutput> {
    try {
      const { stdout, stderr } = await exec(command, args, { cwd, encoding: "utf8", maxBuffer: 16 * 1024 * 1024 });
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
