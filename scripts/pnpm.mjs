#!/usr/bin/env node
// Runs a root task through the project's own pinned pnpm, installing it (through npm)
// into .tools/ when it is missing, so a fresh clone needs only Node and npm.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { delimiter, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const pinned = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).config.pnpm;
const toolsDir = join(root, ".tools");
const pnpmBin = join(toolsDir, "node_modules", ".bin", "pnpm");

function installedVersion() {
  const manifest = join(toolsDir, "node_modules", "pnpm", "package.json");
  return existsSync(manifest) ? JSON.parse(readFileSync(manifest, "utf8")).version : undefined;
}

if (installedVersion() !== pinned) {
  console.log(`toolwright: installing pnpm ${pinned} into .tools/ (once)`);
  execFileSync("npm", ["install", "--prefix", toolsDir, "--no-audit", "--no-fund", "--no-save", `pnpm@${pinned}`], {
    stdio: "inherit",
  });
}

const env = { ...process.env, PATH: `${dirname(pnpmBin)}${delimiter}${process.env.PATH ?? ""}` };
const run = (args) => {
  const r = spawnSync(pnpmBin, args, { stdio: "inherit", cwd: root, env });
  if (r.status !== 0) process.exit(r.status ?? 1);
};

const [task, ...rest] = process.argv.slice(2);
if (!task) {
  console.error("usage: node scripts/pnpm.mjs <task> [args...]   (task: test, demo, bench, or any root script)");
  process.exit(2);
}
run(["install", ...(process.env.CI ? ["--frozen-lockfile"] : []), "--reporter=append-only"]);
run(["run", `task:${task}`, ...rest]);
