import { execFile } from "node:child_process";
import { symlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { promisify } from "node:util";
import { loadTs7 } from "../../packages/compiler/src/backend/ts7/ts7-api.js";
import { Ts7Session } from "../../packages/compiler/src/backend/ts7/ts7-session.js";
import { tempProject } from "../../packages/compiler/test/temp-project.js";

const require = createRequire(import.meta.url);
const run = promisify(execFile);

/** The workspace's pinned TypeScript 7 (`typescript-7`, an alias of typescript@7.0.x). */
export const TS7 = path.dirname(require.resolve("typescript-7/package.json"));
/** The workspace's TypeScript 5.9. */
export const TS5 = path.dirname(require.resolve("typescript/package.json"));
/** The built `toolwright` executable. */
export const CLI = path.join(
  path.dirname(require.resolve("@toolwright/compiler/package.json")),
  "dist",
  "cli",
  "bin.js",
);

/**
 * A throwaway project (see tempProject) whose own `typescript` is `typescript` (a package
 * folder, linked as node_modules/typescript), with `files` written under its root.
 */
export function projectWith(name: string, typescript: string | undefined, files: Record<string, string>): string {
  const root = tempProject(name);
  if (typescript) symlinkSync(typescript, path.join(root, "node_modules", "typescript"), "dir");
  writeFileSync(path.join(root, "package.json"), JSON.stringify({ type: "module", private: true }));
  for (const [file, text] of Object.entries(files)) writeFileSync(path.join(root, file), text);
  return root;
}

/**
 * A throwaway project with no TypeScript of its own: a tsconfig.json of `options` with NodeNext
 * modules over src/, and `files` written in src/. The caller removes it (removeTempProject).
 */
export function sourceProject(
  name: string,
  options: Readonly<Record<string, unknown>>,
  files: Readonly<Record<string, string>>,
): string {
  const root = projectWith(name, undefined, {
    "tsconfig.json": JSON.stringify({ compilerOptions: { ...options, module: "NodeNext" }, include: ["src"] }),
  });
  for (const [file, text] of Object.entries(files)) writeFileSync(path.join(root, "src", file), text);
  return root;
}

/** A strict NodeNext tsconfig over src/, with toolwright's plugin entry when `plugin` is given. */
export function tsconfig(plugin?: Record<string, unknown>): string {
  return JSON.stringify({
    compilerOptions: {
      target: "ES2022",
      module: "NodeNext",
      moduleResolution: "NodeNext",
      strict: true,
      skipLibCheck: true,
      types: [],
      ...(plugin ? { plugins: [{ transform: "@toolwright/compiler/transform", ...plugin }] } : {}),
    },
    include: ["src"],
  });
}

/**
 * Runs the real `toolwright` CLI in `cwd`; `node` are options for Node itself (`--import`),
 * `env` variables added to this process's.
 */
export async function toolwright(
  cwd: string,
  args: readonly string[],
  node: readonly string[] = [],
  env: Readonly<Record<string, string>> = {},
): Promise<{ code: number; out: string; err: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [...node, CLI, ...args], {
      cwd,
      encoding: "utf8",
      env: { ...process.env, ...env },
    });
    return { code: 0, out: stdout, err: stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, out: failed.stdout ?? "", err: failed.stderr ?? "" };
  }
}

/** A TypeScript 7 API session (the pinned 7.0.x) on the project at `root`'s tsconfig.json; the caller closes it. */
export function ts7Session(root: string, collectTiming = false): Ts7Session {
  return new Ts7Session(loadTs7(TS7), { cwd: root, tsconfig: path.join(root, "tsconfig.json"), collectTiming });
}
