// The Vitest configuration of the Node-version runs (scripts/node-versions/run.mjs): the
// root's settings, and the packages of peers.json resolved from the folder the run
// installed them into with this Node (TOOLWRIGHT_PEERS_DIR), wherever a test file or the
// workspace's own code imports them. What those packages import resolves beside them.

import { readFileSync } from "node:fs";
import path from "node:path";
import { defineConfig, mergeConfig } from "vitest/config";
import base from "../../vitest.config.ts";

const peersDir = process.env.TOOLWRIGHT_PEERS_DIR;
if (!peersDir) throw new Error("TOOLWRIGHT_PEERS_DIR is not set: run this through scripts/node-versions/run.mjs");
const names = new Set(
  Object.keys(JSON.parse(readFileSync(path.join(import.meta.dirname, "peers.json"), "utf8")).dependencies),
);
const packageOf = (id) =>
  id
    .split("/")
    .slice(0, id.startsWith("@") ? 2 : 1)
    .join("/");
const inPeers = path.join(peersDir, "node_modules") + path.sep;

export default mergeConfig(
  base,
  defineConfig({
    plugins: [
      {
        name: "toolwright-node-version-peers",
        enforce: "pre",
        resolveId(source, importer, options) {
          if (!names.has(packageOf(source)) || importer?.startsWith(inPeers)) return null;
          return this.resolve(source, path.join(peersDir, "package.json"), { ...options, skipSelf: true });
        },
      },
    ],
  }),
);
