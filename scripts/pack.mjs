#!/usr/bin/env node
/**
 * The release path: builds both published packages from a clean dist/ and packs them into
 * tarballs npm installs. `pnpm pack` (not `npm pack`) writes the tarballs, because the
 * compiler depends on the runtime as `"toolwright": "workspace:^"`, which only pnpm turns
 * into the runtime's version range; npm would pack the `workspace:` range as it is, and
 * then fail to install the tarball without saying why. Each tarball's package.json is read
 * back and refused if any `workspace:` range is left in it.
 *
 *   npm run pack                                  (from a clone: installs pnpm and the workspace first)
 *   node scripts/pack.mjs [--out <dir>] [--no-build]
 *
 * `--out`: where the tarballs go (default: packed/). `--no-build`: pack the dist/ already
 * built (the tests do, while other tests read dist/). Prints one tarball path per line.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const PNPM = path.join(ROOT, ".tools/node_modules/.bin/pnpm");
/** The published packages, the runtime first: the compiler's range names the runtime's version. */
const PACKAGES = ["runtime", "compiler"];

const args = process.argv.slice(2);
const outIndex = args.indexOf("--out");
const out = path.resolve(outIndex >= 0 ? (args[outIndex + 1] ?? "") : path.join(ROOT, "packed"));
const build = !args.includes("--no-build");

const manifestOf = (dir) => JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8"));
const pnpm = (argv, cwd) => execFileSync(PNPM, argv, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });

/** The package.json inside a tarball, as npm will read it. */
function packedManifest(tarball) {
  return JSON.parse(execFileSync("tar", ["-xzOf", tarball, "package/package.json"], { encoding: "utf8" }));
}

/** Every dependency range of a manifest still written with the `workspace:` protocol. */
function workspaceRanges(manifest) {
  const fields = ["dependencies", "peerDependencies", "optionalDependencies", "devDependencies"];
  return fields.flatMap((field) =>
    Object.entries(manifest[field] ?? {})
      .filter(([, range]) => String(range).startsWith("workspace:"))
      .map(([name, range]) => `${field}.${name}: "${range}"`),
  );
}

mkdirSync(out, { recursive: true });
const tarballs = [];
for (const name of PACKAGES) {
  const dir = path.join(ROOT, "packages", name);
  const manifest = manifestOf(dir);
  if (build) {
    // tsc leaves the declarations of moved or deleted sources in dist/: start from nothing.
    rmSync(path.join(dir, "dist"), { recursive: true, force: true });
    pnpm(["run", "build"], dir);
  }
  // The name pnpm and npm give it: `@scope/name` becomes `scope-name-<version>.tgz`.
  const tarball = path.join(out, `${manifest.name.replace(/^@/, "").replace("/", "-")}-${manifest.version}.tgz`);
  rmSync(tarball, { force: true });
  pnpm(["pack", "--pack-destination", out], dir);
  if (!existsSync(tarball)) throw new Error(`pnpm pack of packages/${name} wrote no ${tarball}`);
  const left = workspaceRanges(packedManifest(tarball));
  if (left.length > 0) {
    throw new Error(`${tarball} still has workspace ranges (${left.join(", ")}): npm cannot install it.`);
  }
  tarballs.push(tarball);
}

// The compiler's tarball must ask for the runtime packed beside it.
const runtime = packedManifest(tarballs[0]);
const wanted = packedManifest(tarballs[1]).dependencies?.[runtime.name];
if (wanted !== `^${runtime.version}`) {
  throw new Error(
    `the compiler's tarball asks for ${runtime.name}@${wanted}, not ^${runtime.version} packed beside it.`,
  );
}
for (const tarball of tarballs) console.log(tarball);
