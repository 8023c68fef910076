import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type * as Ast from "typescript-7/unstable/ast";
import type * as Is from "typescript-7/unstable/ast/is";
import type * as Sync from "typescript-7/unstable/sync";

/** The TypeScript 7 releases whose API toolwright was tested with: 7.0.x (`typescript/unstable/*`). */
export const TESTED_TS7 = "7.0.2";
const SUPPORTED = /^7\.0\.\d+$/;

/** What toolwright uses of a TypeScript 7 package: its API client, AST helpers and guards. */
export interface Ts7Modules {
  readonly version: string;
  /** The package's folder. */
  readonly dir: string;
  readonly sync: typeof Sync;
  readonly ast: typeof Ast;
  readonly is: typeof Is;
}

/** A TypeScript 7 toolwright cannot work with: a release whose API it was not built for. */
export class UnsupportedTypeScriptError extends Error {
  override name = "UnsupportedTypeScriptError";
}

// The methods the derivation calls, checked before anything runs: `unstable` means they
// may be renamed or dropped in any release.
const NEEDED: Readonly<Record<"API" | "Program" | "Checker", readonly string[]>> = {
  API: ["updateSnapshot", "close"],
  Program: ["getSourceFile", "getSourceFileNames", "getSourceFileMetadata", "getSemanticDiagnostics"],
  Checker: [
    "getResolvedSignature",
    "getSignaturesOfType",
    "getReturnTypeOfSignature",
    "getTypeOfSymbol",
    "getTypeAtLocation",
    "getTypeFromTypeNode",
    "getSymbolAtLocation",
    "getAliasedSymbol",
    "getExportsOfModule",
    "getPropertiesOfType",
    "getIndexInfosOfType",
    "getTypeArguments",
    "isArrayType",
    "isTupleType",
    "getContextualType",
    "getBaseTypeOfLiteralType",
    "getBaseTypes",
    "getSignatureFromDeclaration",
    "typeToString",
  ],
};

function fixFor(version: string): string {
  return (
    `toolwright derives schemas through TypeScript 7.0's API (typescript/unstable/sync, tested with ${TESTED_TS7}), ` +
    `and this project's typescript is ${version}. Fix: install a 7.0 release ("typescript": "~${TESTED_TS7}" in ` +
    "devDependencies), or, to keep this one, add 7.0 beside it under an alias " +
    `("typescript-7": "npm:typescript@${TESTED_TS7}") and run toolwright with --typescript node_modules/typescript-7.`
  );
}

/**
 * The version of the TypeScript 7 package in `dir`, read from its package.json, if it is a
 * release whose API toolwright was built for; else {@link UnsupportedTypeScriptError}
 * naming the version found and what to do. Loads nothing.
 */
export function ts7Version(dir: string): string {
  const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { version?: unknown };
  const version = typeof manifest.version === "string" ? manifest.version : "of unknown version";
  if (!SUPPORTED.test(version)) throw new UnsupportedTypeScriptError(fixFor(version));
  return version;
}

/**
 * Loads the TypeScript 7 package in `dir` (a folder holding its package.json) and checks,
 * before anything runs, that it is a release whose API toolwright was built for and that
 * every method the derivation calls is there. Throws {@link UnsupportedTypeScriptError}
 * naming the version found and what to do.
 */
export function loadTs7(dir: string): Ts7Modules {
  const version = ts7Version(dir);
  // The package's own entry points, by its own name (a package may import itself), so an
  // alias folder (node_modules/typescript-7) loads exactly what it exports.
  const require = createRequire(join(dir, "package.json"));
  let sync: typeof Sync;
  let ast: typeof Ast;
  let is: typeof Is;
  try {
    sync = require("typescript/unstable/sync") as typeof Sync;
    ast = require("typescript/unstable/ast") as typeof Ast;
    is = require("typescript/unstable/ast/is") as typeof Is;
  } catch (error) {
    throw new UnsupportedTypeScriptError(
      `cannot load TypeScript ${version}'s API from ${dir} (${(error as Error).message}). ${fixFor(version)}`,
    );
  }
  const missing = Object.entries(NEEDED).flatMap(([owner, methods]) => {
    const prototype = (sync as unknown as Record<string, { prototype?: Record<string, unknown> }>)[owner]?.prototype;
    return methods.filter((m) => typeof prototype?.[m] !== "function").map((m) => `${owner}.${m}`);
  });
  if (missing.length > 0) {
    throw new UnsupportedTypeScriptError(
      `TypeScript ${version}'s API lacks ${missing.join(", ")}, which toolwright calls. ${fixFor(version)}`,
    );
  }
  return { version, dir, sync, ast, is };
}

/** The folder of the `typescript` package a project at `root` resolves, or undefined without one. */
export function projectTypeScript(root: string): { dir: string; version: string } | undefined {
  let manifest: string;
  try {
    manifest = createRequire(join(root, "package.json")).resolve("typescript/package.json");
  } catch {
    return undefined;
  }
  if (!existsSync(manifest)) return undefined;
  const { version } = JSON.parse(readFileSync(manifest, "utf8")) as { version?: unknown };
  return { dir: dirname(manifest), version: typeof version === "string" ? version : "" };
}
