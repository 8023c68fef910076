import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { BuildOptions } from "esbuild";
import { afterAll, describe, expect, it } from "vitest";
import { applyOutputDefaults, NATIVE_EXTERNALS, REQUIRE_BANNER } from "../../src/esbuild/output-defaults.js";

// The output options the esbuild plugin fills in, and those it leaves to the build: what a
// build sets always stands. (test/build-paths/esbuild-readme.test.ts runs the bundles.)

const esmPackage = mkdtempSync(path.join(tmpdir(), "toolwright-output-defaults-"));
writeFileSync(path.join(esmPackage, "package.json"), JSON.stringify({ type: "module" }));
afterAll(() => rmSync(esmPackage, { recursive: true, force: true }));

function defaults(options: BuildOptions): BuildOptions {
  const copy = { absWorkingDir: esmPackage, ...options };
  applyOutputDefaults(copy);
  return copy;
}

describe("the esbuild plugin's output defaults", () => {
  it("gives a Node bundle of an ES module package the native drivers as externals and a require banner", () => {
    const options = defaults({ bundle: true, platform: "node" });
    expect(options).toMatchObject({ format: "esm", external: NATIVE_EXTERNALS, banner: { js: REQUIRE_BANNER } });
  });

  it("adds the native drivers to the build's own externals, once", () => {
    const options = defaults({ bundle: true, platform: "node", external: ["sharp", "better-sqlite3"] });
    expect(options.external).toEqual(["sharp", "better-sqlite3", "pg-native"]);
  });

  it("leaves a build's own banner.js alone, and keeps its CSS banner beside the require banner", () => {
    expect(defaults({ bundle: true, platform: "node", banner: { js: "// mine" } }).banner).toEqual({ js: "// mine" });
    expect(defaults({ bundle: true, platform: "node", banner: { css: "/* c */" } }).banner).toEqual({
      css: "/* c */",
      js: REQUIRE_BANNER,
    });
  });

  it("gives a CommonJS bundle no banner (it has require), and a build that does not bundle nothing", () => {
    expect(defaults({ bundle: true, platform: "node", format: "cjs" }).banner).toBeUndefined();
    const single = defaults({ platform: "node" });
    expect(single.external).toBeUndefined();
    expect(single.banner).toBeUndefined();
  });
});
