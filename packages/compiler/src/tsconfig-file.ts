import { existsSync, readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { type CompilerOptions, transformEntryOptions } from "./options.js";

/**
 * The text of a tsconfig as JSON: TypeScript reads tsconfig files leniently, with `//` and
 * `/* *\/` comments and trailing commas, which `JSON.parse` refuses. Each is blanked out
 * (newlines kept), so that a position in the JSON is the same position in the file. Strings
 * are kept as written (a `//` or `,}` inside a path is not touched).
 */
export function jsonOfTsconfig(text: string): string {
  const blank = (from: number, to: number) => text.slice(from, to).replace(/[^\n]/g, " ");
  let out = "";
  // A comma is written once the next token shows it is not trailing (before `}` or `]`).
  let pendingComma = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (c === "/" && (text[i + 1] === "/" || text[i + 1] === "*")) {
      const line = text[i + 1] === "/";
      const found = line ? text.indexOf("\n", i) : text.indexOf("*/", i + 2);
      const end = found < 0 ? text.length : line ? found : found + 2;
      out += blank(i, end);
      i = end - 1;
      continue;
    }
    if (/\s/.test(c)) {
      // JSON's whitespace as it is; any other (a byte order mark, a no-break space) as a space.
      out += c === " " || c === "\n" || c === "\r" || c === "\t" ? c : " ";
      continue;
    }
    if (pendingComma >= 0) {
      if (c === "}" || c === "]") out = `${out.slice(0, pendingComma)} ${out.slice(pendingComma + 1)}`;
      pendingComma = -1;
    }
    if (c === ",") pendingComma = out.length;
    if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === "\\" ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j;
      continue;
    }
    out += c;
  }
  return out;
}

interface RawConfig {
  readonly extends?: unknown;
  readonly compilerOptions?: { readonly plugins?: unknown };
  readonly files?: unknown;
  readonly include?: unknown;
  readonly references?: unknown;
}

/** `file(line,column)` of a position in `text`, 1-based, as tsc names a place. */
function placeIn(file: string, text: string, position: number): string {
  const before = text.slice(0, position).split("\n");
  return `${file}(${before.length},${(before.at(-1)?.length ?? 0) + 1})`;
}

function readConfig(file: string): RawConfig {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new Error(
      `cannot read ${file}: ${(error as Error).message}. Fix: check that the file exists and can be read.`,
    );
  }
  try {
    return JSON.parse(jsonOfTsconfig(text)) as RawConfig;
  } catch (error) {
    // V8 names the position in the JSON, which is the file's (jsonOfTsconfig keeps them).
    const message = (error as Error).message;
    const position = /at position (\d+)/.exec(message)?.[1];
    const place = placeIn(file, text, position === undefined ? text.length : Number(position));
    const problem = message.replace(/ in JSON at position \d+.*$/, "").replace(/ of JSON input$/, "");
    throw new Error(
      `${place}: not valid JSON: ${problem}. Fix: correct it there (comments and trailing commas are fine).`,
    );
  }
}

/** The file an `extends` entry names, resolved as TypeScript does: a path, or a package's tsconfig. */
function extendedFile(name: string, from: string): string {
  const base = dirname(from);
  if (name.startsWith(".") || isAbsolute(name)) {
    const file = resolve(base, name);
    if (existsSync(file)) return file;
    if (existsSync(`${file}.json`)) return `${file}.json`;
    throw new Error(`${from} extends "${name}", which does not exist. Fix: correct the path in "extends".`);
  }
  const require = createRequire(join(base, "tsconfig.json"));
  for (const candidate of [name, `${name}.json`, `${name}/tsconfig.json`]) {
    try {
      return require.resolve(candidate);
    } catch {}
  }
  try {
    const manifest = require.resolve(`${name}/package.json`);
    const { tsconfig } = JSON.parse(readFileSync(manifest, "utf8")) as { tsconfig?: unknown };
    if (typeof tsconfig === "string") return resolve(dirname(manifest), tsconfig);
  } catch {}
  throw new Error(`${from} extends "${name}", which cannot be found. Fix: install the package or correct "extends".`);
}

/**
 * A setting that applies to a tsconfig: its own, or else the one of the configs it extends
 * (the last of an `extends` list first, as TypeScript overrides them), depth first.
 * `undefined` when no config in the chain sets it.
 */
function settingOf(file: string, pick: (config: RawConfig) => unknown, seen: ReadonlySet<string> = new Set()): unknown {
  if (seen.has(file))
    throw new Error(`${file} extends itself (through ${[...seen].join(" -> ")}). Fix: break the cycle.`);
  const config = readConfig(file);
  const own = pick(config);
  if (own !== undefined) return own;
  const parents =
    typeof config.extends === "string" ? [config.extends] : Array.isArray(config.extends) ? config.extends : [];
  const chain = new Set([...seen, file]);
  for (const parent of [...parents].reverse()) {
    if (typeof parent !== "string") continue;
    const setting = settingOf(extendedFile(parent, file), pick, chain);
    if (setting !== undefined) return setting;
  }
  return undefined;
}

/**
 * The options of toolwright's entry in a tsconfig's `compilerOptions.plugins`, read from the
 * file itself and the configs it extends. TypeScript 7 drops `plugins` from the options it
 * parses, so this is how the TypeScript 7 path reads the same settings tsc's transformer gets.
 *
 * @example
 * ```ts
 * toolwrightOptionsOf("tsconfig.json"); // { minDescriptionLength: 20 }
 * ```
 */
export function toolwrightOptionsOf(tsconfig: string): CompilerOptions {
  const plugins = settingOf(resolve(tsconfig), (config) => config.compilerOptions?.plugins);
  return transformEntryOptions({ plugins });
}

/** The tsconfig and every config it extends, at any depth: the files whose text decides the project's options. */
export function tsconfigFiles(tsconfig: string): string[] {
  const files: string[] = [];
  const visit = (file: string) => {
    if (files.includes(file)) return;
    files.push(file);
    const { extends: parents } = readConfig(file);
    const list = typeof parents === "string" ? [parents] : Array.isArray(parents) ? parents : [];
    for (const parent of list) if (typeof parent === "string") visit(extendedFile(parent, file));
  };
  visit(resolve(tsconfig));
  return files;
}

/**
 * The tsconfig files a solution tsconfig references: one with no files of its own
 * (`"files": []` and no `include`, itself or through `extends`) and only `references`, as
 * Vite's templates write; a reference naming a folder means its tsconfig.json. Empty for
 * a tsconfig of one project.
 */
export function solutionReferences(tsconfig: string): string[] {
  const file = resolve(tsconfig);
  const { references } = readConfig(file);
  if (!Array.isArray(references) || references.length === 0) return [];
  const files = settingOf(file, (config) => config.files);
  if (!Array.isArray(files) || files.length > 0 || settingOf(file, (config) => config.include) !== undefined) return [];
  return references.flatMap((reference: unknown) => {
    const path = (reference as { path?: unknown } | null)?.path;
    if (typeof path !== "string") return [];
    const target = resolve(dirname(file), path);
    return [existsSync(target) && statSync(target).isDirectory() ? join(target, "tsconfig.json") : target];
  });
}
