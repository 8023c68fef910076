#!/usr/bin/env node
// The compiler's "prepack": npm packs `"toolwright": "workspace:^"` as it is, and npm then
// cannot install the tarball (and says no more than where its log is). pnpm, which runs
// this too, writes the runtime's version range instead: only npm is refused.
const agent = process.env.npm_config_user_agent ?? "";
if (!agent.startsWith("pnpm/")) {
  console.error(
    `${process.env.npm_package_name ?? "this package"} depends on "toolwright": "workspace:^", which only pnpm turns into ` +
      'a version range when it packs: run "npm run pack" at the repository root (it writes installable tarballs to packed/).',
  );
  process.exit(1);
}
