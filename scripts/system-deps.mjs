#!/usr/bin/env node
// What the tests need from the system besides Node: Debian's Chromium (the run viewer's
// browser test; a browser download fails on the machines we run on) and PostgreSQL's
// server (the stores' tests start their own cluster). `npm test` runs this first: what is
// missing is installed from apt when this process may (root, apt-get), or it stops with
// the one command that installs it.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { postgresBinDir } from "./local-postgres.mjs";

/** Where the browser test looks for Chromium (test/trace/view-browser.test.ts). */
const CHROMIUM = "/usr/bin/chromium";

const NEEDS = [
  {
    pkg: "chromium",
    what: `Chromium at ${CHROMIUM} (the run viewer's browser test)`,
    present: () => existsSync(CHROMIUM),
  },
  {
    pkg: "postgresql",
    what: "PostgreSQL's server, initdb and pg_ctl (the stores' tests; or set PG_BIN to their folder)",
    present: () => {
      const dir = postgresBinDir();
      return dir !== undefined && existsSync(join(dir, "initdb"));
    },
  },
];

const missing = () => NEEDS.filter((need) => !need.present());
const canInstall = () =>
  process.getuid?.() === 0 && spawnSync("sh", ["-c", "command -v apt-get"], { stdio: "ignore" }).status === 0;

function apt(args) {
  const result = spawnSync("apt-get", args, {
    stdio: "inherit",
    env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
  });
  return result.status === 0;
}

let needed = missing();
if (needed.length > 0 && canInstall()) {
  const packages = needed.map((need) => need.pkg);
  console.log(`toolwright: installing ${packages.join(" and ")} from apt for the tests (once)`);
  if (apt(["update", "-q"])) apt(["install", "-y", "-q", "--no-install-recommends", ...packages]);
  needed = missing();
}
if (needed.length > 0) {
  const packages = needed.map((need) => need.pkg).join(" ");
  const sudo = process.getuid?.() === 0 ? "" : "sudo ";
  console.error(
    [
      "toolwright: the tests need what this machine lacks:",
      ...needed.map((need) => `  - ${need.what}`),
      "Install it (Debian or Ubuntu), then run npm test again:",
      `  ${sudo}apt-get update && ${sudo}apt-get install -y --no-install-recommends ${packages}`,
    ].join("\n"),
  );
  process.exit(1);
}
