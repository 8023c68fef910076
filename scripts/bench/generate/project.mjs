/**
 * Writes one benchmark project of `n` equivalent tools:
 *
 *   src/shapes-K.ts      the typed functions and argument interfaces (shared by both compilers)
 *   src/toolwright-K.ts  `tool(fn)` for each function (our transformer fills in the specs)
 *   src/typia-K.ts       `typia.createValidate<Args>()` for each argument interface
 *   src/toolwright.ts, src/typia.ts   every chunk's list, concatenated
 *   js/zod.mjs, js/ai.mjs, js/json-schemas.mjs   the same tools for the run-time-only peers
 *   tsconfig.<kind>-plain.json, tsconfig.<kind>.json  one compiler's sources, without and with
 *                        its ts-patch plugin (kind: toolwright, typia)
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { argsTypeName, description, jsonSchema, tsDeclarations, zodSource } from "./emit.mjs";
import { toolName } from "./shapes.mjs";

/** Tools per source file: a project of 1,000 tools has 20 files of each kind. */
const CHUNK = 50;

const range = (from, to) => Array.from({ length: to - from }, (_, k) => from + k);

function write(file, text) {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${text}\n`);
}

/** The tool ids of `n` tools in files of {@link CHUNK}. */
function chunksOf(n) {
  return range(0, Math.ceil(n / CHUNK)).map((k) => range(k * CHUNK, Math.min(n, (k + 1) * CHUNK)));
}

/** src/<kind>.ts: every chunk's `list` (src/<kind>-K.ts), concatenated. */
function writeIndex(dir, kind, list, chunks) {
  write(
    path.join(dir, "src", `${kind}.ts`),
    [
      ...chunks.map((_, k) => `import { ${list} as c${k} } from "./${kind}-${k}.js";`),
      "",
      `export const ${list} = [${chunks.map((_, k) => `...c${k}`).join(", ")}];`,
    ].join("\n"),
  );
}

/**
 * The tsconfig of one build: the `kind`'s sources only (so each compiler is measured on its
 * own program), with that kind's ts-patch plugin when `transform` is set; `include` names
 * other sources than the generated tools'.
 */
export function tsconfig(kind, transform, include = ["src/shapes-*.ts", `src/${kind}*.ts`]) {
  return {
    compilerOptions: {
      target: "ES2022",
      module: "NodeNext",
      moduleResolution: "NodeNext",
      strict: true,
      skipLibCheck: true,
      types: [],
      rootDir: "src",
      outDir: `dist-${kind}${transform ? "" : "-plain"}`,
      ...(transform ? { plugins: [{ transform: PLUGINS[kind] }] } : {}),
    },
    include,
  };
}

/** The ts-patch entry of each compiler. */
export const PLUGINS = {
  toolwright: "@toolwright/compiler/transform",
  typia: "typia/lib/transform",
  "json-typia": "typia/lib/transform",
};

function aiTool(i) {
  const shape = toolName(i);
  return `tool({ description: ${JSON.stringify(description(i))}, inputSchema: ${zodSource(i)}, execute: async (args) => JSON.stringify(Object.values(args)) }) /* ${shape} */`;
}

/**
 * Writes a project of `n` tools declared beside their `tool()` calls, each with a body of a
 * dozen library calls (see `tsDeclarations`' `working`), into `dir` (emptied first): what
 * site finding meets in an app, where every call in a file that imports toolwright is a
 * candidate site. Only toolwright's sources: src/toolwright-K.ts and src/toolwright.ts, and
 * tsconfig.toolwright-plain.json and tsconfig.toolwright.json.
 */
export function writeWorkingProject(dir, n) {
  rmSync(dir, { recursive: true, force: true });
  const chunks = chunksOf(n);
  for (const [k, ids] of chunks.entries()) {
    write(
      path.join(dir, "src", `toolwright-${k}.ts`),
      [
        'import { tool } from "toolwright";',
        "",
        ...ids.map((i) => tsDeclarations(i, { working: true })),
        "",
        `export const tools = [\n${ids.map((i) => `  tool(${toolName(i)}),`).join("\n")}\n];`,
      ].join("\n"),
    );
  }
  writeIndex(dir, "toolwright", "tools", chunks);
  write(path.join(dir, "package.json"), JSON.stringify({ type: "module", private: true }));
  const include = ["src/toolwright*.ts"];
  write(
    path.join(dir, "tsconfig.toolwright-plain.json"),
    JSON.stringify(tsconfig("toolwright", false, include), null, 2),
  );
  write(path.join(dir, "tsconfig.toolwright.json"), JSON.stringify(tsconfig("toolwright", true, include), null, 2));
  return { dir, n };
}

/**
 * Writes the project of `n` tools into `dir` (emptied first) and returns its paths.
 *
 * @example
 * const project = writeProject(".tmp/projects/n200", 200);
 * project.toolwrightOut; // where `tsc -p tsconfig.toolwright.json` writes toolwright.js
 */
export function writeProject(dir, n) {
  rmSync(dir, { recursive: true, force: true });
  const chunks = chunksOf(n);
  for (const [k, ids] of chunks.entries()) {
    write(path.join(dir, "src", `shapes-${k}.ts`), ids.map(tsDeclarations).join("\n\n"));
    write(
      path.join(dir, "src", `toolwright-${k}.ts`),
      [
        'import { tool } from "toolwright";',
        `import { ${ids.map(toolName).join(", ")} } from "./shapes-${k}.js";`,
        "",
        `export const tools = [\n${ids.map((i) => `  tool(${toolName(i)}),`).join("\n")}\n];`,
      ].join("\n"),
    );
    // typia's parser of argument text (typia.json.validateParse), in files of their own so the
    // typia build above measures what it always did.
    write(
      path.join(dir, "src", `json-typia-${k}.ts`),
      [
        'import typia from "typia";',
        `import type { ${ids.map(argsTypeName).join(", ")} } from "./shapes-${k}.js";`,
        "",
        `export const parsers = [\n${ids.map((i) => `  typia.json.createValidateParse<${argsTypeName(i)}>(),`).join("\n")}\n];`,
      ].join("\n"),
    );
    write(
      path.join(dir, "src", `typia-${k}.ts`),
      [
        'import typia from "typia";',
        `import type { ${ids.map(argsTypeName).join(", ")} } from "./shapes-${k}.js";`,
        "",
        `export const validators = [\n${ids.map((i) => `  typia.createValidate<${argsTypeName(i)}>(),`).join("\n")}\n];`,
      ].join("\n"),
    );
  }
  for (const [kind, list] of [
    ["toolwright", "tools"],
    ["typia", "validators"],
    ["json-typia", "parsers"],
  ]) {
    writeIndex(dir, kind, list, chunks);
  }
  const ids = range(0, n);
  write(
    path.join(dir, "js", "zod.mjs"),
    `import { z } from "zod";\n\nexport const schemas = [\n${ids.map((i) => `  ${zodSource(i)},`).join("\n")}\n];`,
  );
  write(
    path.join(dir, "js", "ai.mjs"),
    `import { tool } from "ai";\nimport { z } from "zod";\n\nexport const tools = [\n${ids.map((i) => `  ${aiTool(i)},`).join("\n")}\n];`,
  );
  write(
    path.join(dir, "js", "json-schemas.mjs"),
    `export const schemas = ${JSON.stringify(ids.map(jsonSchema), null, 1)};`,
  );
  // NodeNext emits ES modules only under a package of "type": "module".
  write(path.join(dir, "package.json"), JSON.stringify({ type: "module", private: true }));
  for (const kind of Object.keys(PLUGINS)) {
    write(path.join(dir, `tsconfig.${kind}-plain.json`), JSON.stringify(tsconfig(kind, false), null, 2));
    write(path.join(dir, `tsconfig.${kind}.json`), JSON.stringify(tsconfig(kind, true), null, 2));
  }
  return {
    dir,
    n,
    toolwrightOut: path.join(dir, "dist-toolwright", "toolwright.js"),
    typiaOut: path.join(dir, "dist-typia", "typia.js"),
    typiaJsonOut: path.join(dir, "dist-json-typia", "json-typia.js"),
    zod: path.join(dir, "js", "zod.mjs"),
    ai: path.join(dir, "js", "ai.mjs"),
    jsonSchemas: path.join(dir, "js", "json-schemas.mjs"),
  };
}
