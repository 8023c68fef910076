import { resolve } from "node:path";
import type ts from "typescript";
import { type CompilerOptions, transformEntryOptions } from "../options.js";
import { TS } from "../typescript-host.js";

/** A project's tsconfig as the plugins and the CLI use it. */
export interface ProjectConfig {
  /** The tsconfig.json read, or undefined when built-in defaults are used. */
  readonly path?: string;
  readonly options: ts.CompilerOptions;
  readonly fileNames: readonly string[];
  readonly projectReferences?: readonly ts.ProjectReference[];
  /** The options of the `@toolwright/compiler/transform` entry in `compilerOptions.plugins`. */
  readonly toolwright: CompilerOptions;
  /** Problems in the tsconfig that are not fatal (unknown options, no inputs, ...). */
  readonly diagnostics: readonly ts.Diagnostic[];
}

/** Built-in options when there is no tsconfig (a function: TypeScript loads on first use, never at import). */
function defaultOptions(): ts.CompilerOptions {
  return {
    target: TS.ScriptTarget.ES2022,
    module: TS.ModuleKind.NodeNext,
    moduleResolution: TS.ModuleResolutionKind.NodeNext,
    strict: true,
    skipLibCheck: true,
  };
}

/**
 * Reads a project's tsconfig: `tsconfig` relative to `cwd`, or the nearest one above
 * `cwd` when omitted, or TypeScript's defaults with `false`. Fatal problems throw an
 * error naming the file and the fix.
 */
export function readProjectConfig(cwd: string, tsconfig?: string | false): ProjectConfig {
  if (tsconfig === false) return { options: defaultOptions(), fileNames: [], toolwright: {}, diagnostics: [] };
  const path = tsconfig ? resolve(cwd, tsconfig) : TS.findConfigFile(cwd, TS.sys.fileExists);
  if (!path) return { options: defaultOptions(), fileNames: [], toolwright: {}, diagnostics: [] };
  if (!TS.sys.fileExists(path)) throw new Error(`${path} does not exist; pass the path of your tsconfig.json.`);
  const fatal: ts.Diagnostic[] = [];
  const parsed = TS.getParsedCommandLineOfConfigFile(path, undefined, {
    ...TS.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => fatal.push(d),
  });
  if (!parsed || fatal.length > 0) {
    const text = TS.flattenDiagnosticMessageText(fatal[0]?.messageText ?? "unreadable", "\n");
    throw new Error(`cannot read ${path}: ${text}`);
  }
  return {
    path,
    options: parsed.options,
    fileNames: parsed.fileNames,
    ...(parsed.projectReferences ? { projectReferences: parsed.projectReferences } : {}),
    toolwright: transformEntryOptions(parsed.options),
    diagnostics: parsed.errors,
  };
}
