import { readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { removeTempProject } from "../../packages/compiler/test/temp-project.js";
import { projectWith, TS7, toolwright, tsconfig } from "./project.js";

// `toolwright gen` on TypeScript 7 keeps what each file gave, keyed by the content hashes of
// the file, everything it imports and the declarations those reach: a rerun derives only the
// files whose key changed, and with nothing changed starts no TypeScript at all. Real CLI
// processes; `--timing` says how many files were derived and how many requests were made.

const SHARED = `/** Units a reading may come in. */
export type Unit = "celsius" | "fahrenheit";
`;

const READING = `import { tool } from "toolwright";
import type { Unit } from "./shared.js";

/**
 * Current temperature in a city.
 * @param city City name, e.g. "Oslo".
 * @param unit Unit of the answer.
 */
function getTemperature(city: string, unit: Unit): string {
  return city + unit;
}

export const temperature = tool(getTemperature);
`;

const BOOKING = `import { tool } from "toolwright";

/**
 * Book a table for a party.
 * @param party How many people.
 */
function bookTable(party: number): string {
  return String(party);
}

export const booking = tool(bookTable);
`;

const LATER = `import { tool } from "toolwright";

/**
 * Cancel a booking made before.
 * @param id The booking's id.
 */
function cancelBooking(id: string): string {
  return id;
}

export const cancel = tool(cancelBooking);
`;

const ANSWER = `import { schema } from "toolwright";
import type { Unit } from "./shared.js";

/** A reading, as the model reports it. */
export interface Reading {
  celsius: number;
  unit: Unit;
}

export const reading = schema<Reading>({ name: "reading" });
`;

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) removeTempProject(root);
});

function timing(stderr: string): string {
  const line = stderr.split("\n").find((l) => l.startsWith("toolwright gen timing: "));
  if (!line) throw new Error(`no timing line in:\n${stderr}`);
  return line
    .replace(/^toolwright gen timing: \d+ ms, /, "")
    .replace(/\d+ requests \([\d.]+ per tool\).*$/, "N requests");
}

describe("toolwright gen's per-file cache on TypeScript 7", () => {
  it("derives only what a change reaches, and answers from the cache alone when nothing changed", async () => {
    const root = projectWith("gen7-cache", TS7, { "tsconfig.json": tsconfig() });
    roots.push(root);
    const src = (file: string) => path.join(root, "src", file);
    writeFileSync(src("shared.ts"), SHARED);
    writeFileSync(src("reading.ts"), READING);
    writeFileSync(src("booking.ts"), BOOKING);
    // No import reaches it: what it declares may change any file.
    writeFileSync(src("env.d.ts"), "declare const BUILD_ID: string;\n");
    const module = () => readFileSync(src("toolwright.gen.ts"), "utf8");
    const gen = () => toolwright(root, ["gen", "--timing"]);

    const first = await gen();
    expect(first).toMatchObject({ code: 0, out: "wrote 2 tool specs to src/toolwright.gen.ts\n" });
    expect(timing(first.err)).toBe("3 of 3 files derived, N requests");
    const written = module();

    // Nothing changed (the module the first run wrote is no input of its own).
    const again = await gen();
    expect(again.out).toBe("wrote 2 tool specs to src/toolwright.gen.ts\n");
    expect(timing(again.err)).toBe("0 of 3 files derived, 0 requests (answered from the cache, no TypeScript started)");
    expect(module()).toBe(written);
    // The module is not rendered again when its entries did not change, unless the file was edited.
    writeFileSync(src("toolwright.gen.ts"), `${written}// edited by hand\n`);
    expect((await gen()).out).toBe("wrote 2 tool specs to src/toolwright.gen.ts\n");
    expect(module()).toBe(written);

    // A type in an imported file: that file and its importer, not the file that does not import it.
    writeFileSync(src("shared.ts"), SHARED.replace('"fahrenheit"', '"fahrenheit" | "kelvin"'));
    const changed = await gen();
    expect(timing(changed.err)).toBe("2 of 3 files derived, N requests");
    expect(module()).toContain('"enum": [\n');
    expect(module()).toContain('"kelvin"');
    expect(module().replace(/\s/g, "")).toContain('"celsius","fahrenheit","kelvin"');

    // A file created: only it is derived; deleted: nothing is, and its tool is gone.
    writeFileSync(src("later.ts"), LATER);
    const created = await gen();
    expect(created.out).toBe("wrote 3 tool specs to src/toolwright.gen.ts\n");
    expect(timing(created.err)).toBe("1 of 4 files derived, N requests");
    rmSync(src("later.ts"));
    const deleted = await gen();
    expect(deleted.out).toBe("wrote 2 tool specs to src/toolwright.gen.ts\n");
    expect(timing(deleted.err)).toBe("0 of 3 files derived, N requests");
    expect(module()).not.toContain("cancelBooking");

    // An ambient declaration changed: every file is derived again, then none.
    writeFileSync(src("env.d.ts"), "declare const BUILD_ID: number;\n");
    expect(timing((await gen()).err)).toBe("3 of 3 files derived, N requests");
    expect(timing((await gen()).err)).toBe(
      "0 of 3 files derived, 0 requests (answered from the cache, no TypeScript started)",
    );

    // toolwright's options in the tsconfig change every answer: the cache does not hide it.
    writeFileSync(path.join(root, "tsconfig.json"), tsconfig({ minDescriptionLength: 30 }));
    const stricter = await gen();
    expect(stricter.code).toBe(1);
    expect(stricter.err).toContain(
      'TW990005: tool "bookTable" has a description of 25 characters (the minimum is 30).',
    );
  });

  it("with the module in the program and imported by the entry point, the run after one that rewrote it starts no TypeScript", async () => {
    const root = projectWith("gen7-cache-rendering", TS7, { "tsconfig.json": tsconfig() });
    roots.push(root);
    const src = (file: string) => path.join(root, "src", file);
    writeFileSync(src("booking.ts"), BOOKING);
    writeFileSync(src("main.ts"), 'import "./toolwright.gen.js";\n');
    const gen = async () => timing((await toolwright(root, ["gen", "--timing"])).err);
    const cached = "0 of 2 files derived, 0 requests (answered from the cache, no TypeScript started)";
    expect(await gen()).toBe("2 of 2 files derived, N requests");
    expect(await gen()).toBe(cached);
    // The first run wrote the module: main.ts's import of it resolves now, so the next run
    // that reads the program derives main.ts again too.
    writeFileSync(src("booking.ts"), BOOKING.replace("How many people.", "How many guests."));
    expect(await gen()).toBe("2 of 2 files derived, N requests");
    expect(await gen()).toBe(cached);
    // A tool changed: the module is written again, and main.ts, which imports it, is not derived again.
    writeFileSync(src("booking.ts"), BOOKING.replace("How many people.", "How many diners."));
    expect(await gen()).toBe("1 of 2 files derived, N requests");
    expect(readFileSync(src("toolwright.gen.ts"), "utf8")).toContain("How many diners.");
    expect(await gen()).toBe(cached);
    // Edited by hand, the module is an input like any other: its importer is derived again.
    writeFileSync(src("toolwright.gen.ts"), `${readFileSync(src("toolwright.gen.ts"), "utf8")}// edited\n`);
    expect(await gen()).toBe("1 of 2 files derived, N requests");
  });

  it("loads neither the derivation nor the renderer when the cache answers", async () => {
    // Every ES module the process imports is listed in modules.log (a resolve hook); the
    // bundled files name the source modules they hold (\`// src/derivation.ts\`).
    const root = projectWith("gen7-cache-loads", TS7, {
      "tsconfig.json": tsconfig(),
      "hooks.mjs": `import { appendFileSync } from "node:fs";
export async function resolve(specifier, context, next) {
  const found = await next(specifier, context);
  appendFileSync(${JSON.stringify("modules.log")}, found.url + "\\n");
  return found;
}
`,
      "probe.mjs": `import { register } from "node:module";\nregister("./hooks.mjs", import.meta.url);\n`,
    });
    roots.push(root);
    writeFileSync(path.join(root, "src", "reading.ts"), READING);
    writeFileSync(path.join(root, "src", "shared.ts"), SHARED);
    const log = path.join(root, "modules.log");
    // The derivation, the TypeScript 7 session (which loads TypeScript's API), the renderer and the validator generator.
    const heavy = [
      "src/derivation.ts",
      "src/backend/ts7/ts7-session.ts",
      "src/cli/gen-module.ts",
      "src/spec-source.ts",
    ];
    const loaded = async () => {
      rmSync(log, { force: true });
      const result = await toolwright(root, ["gen", "--timing"], ["--import", "./probe.mjs"]);
      expect(result.code).toBe(0);
      const texts = readFileSync(log, "utf8")
        .split("\n")
        .filter((url) => url.startsWith("file:") && url.endsWith(".js"))
        .map((url) => readFileSync(fileURLToPath(url), "utf8"));
      return {
        timing: timing(result.err),
        modules: heavy.filter((source) => texts.some((text) => text.includes(`\n// ${source}\n`))),
      };
    };
    expect(await loaded()).toEqual({ timing: "2 of 2 files derived, N requests", modules: heavy });
    expect(await loaded()).toEqual({
      timing: "0 of 2 files derived, 0 requests (answered from the cache, no TypeScript started)",
      modules: [],
    });
  });

  it("parses only the files a rerun derives: the unchanged files' syntax trees are not fetched, however many there are", async () => {
    // A tool file that imports nothing of the project's: a change to it derives it alone.
    const toolFile = (n: number) => BOOKING.replace("bookTable", `bookTable${n}`).replace("booking =", `booking${n} =`);
    const treesFetched = (stderr: string) => Number(/, (\d+) syntax trees fetched;/.exec(stderr)?.[1] ?? Number.NaN);
    const rerunAfterOneChange = async (others: number) => {
      const root = projectWith(`gen7-cache-trees-${others}`, TS7, { "tsconfig.json": tsconfig() });
      roots.push(root);
      const src = (file: string) => path.join(root, "src", file);
      writeFileSync(src("shared.ts"), SHARED);
      writeFileSync(src("reading.ts"), READING);
      for (let n = 0; n < others; n++) writeFileSync(src(`tool-${n}.ts`), toolFile(n));
      writeFileSync(src("booking.ts"), BOOKING);
      const gen = () => toolwright(root, ["gen", "--timing"]);
      const cold = await gen();
      expect(cold.code).toBe(0);
      // The first run that reads the program after the module was written resolves every
      // file's imports again (an import of the module may resolve now); the ones after it do not.
      writeFileSync(src("booking.ts"), BOOKING.replace("String(party)", "String(party + 0)"));
      expect((await gen()).code).toBe(0);
      writeFileSync(src("booking.ts"), BOOKING.replace("String(party)", "party.toFixed(0)"));
      const rerun = await gen();
      expect(rerun.code).toBe(0);
      expect(timing(rerun.err)).toBe(`1 of ${others + 3} files derived, N requests`);
      return { cold: treesFetched(cold.err), rerun: treesFetched(rerun.err) };
    };
    const small = await rerunAfterOneChange(2);
    const large = await rerunAfterOneChange(8);
    // The cold run parses every file, so 6 more files are 6 more trees...
    expect(large.cold - small.cold).toBe(6);
    // ...but a rerun parses the changed file and the declarations its tool() call resolves
    // to, whatever else the project holds, and far fewer trees than a cold run.
    expect(large.rerun).toBe(small.rerun);
    expect(small.rerun).toBeGreaterThanOrEqual(1);
    expect(small.rerun).toBeLessThan(small.cold / 4);
  });

  it("keeps schema<T>() calls with their file: a cached run registers them, a change to their type derives them again", async () => {
    const root = projectWith("gen7-cache-schemas", TS7, { "tsconfig.json": tsconfig() });
    roots.push(root);
    const src = (file: string) => path.join(root, "src", file);
    writeFileSync(src("shared.ts"), SHARED);
    writeFileSync(src("answer.ts"), ANSWER);
    const module = () => readFileSync(src("toolwright.gen.ts"), "utf8");
    const gen = () => toolwright(root, ["gen", "--timing"]);

    const first = await gen();
    expect(first).toMatchObject({ code: 0, out: "wrote 0 tool specs and 1 schema to src/toolwright.gen.ts\n" });
    const written = module();
    expect(written).toContain('const schema0: GeneratedSchemaEntry = {\n  "name": "reading",');
    rmSync(src("toolwright.gen.ts"));
    const cached = await gen();
    expect(timing(cached.err)).toBe(
      "0 of 2 files derived, 0 requests (answered from the cache, no TypeScript started)",
    );
    expect(module()).toBe(written);

    writeFileSync(src("shared.ts"), SHARED.replace('"fahrenheit"', '"fahrenheit" | "kelvin"'));
    const changed = await gen();
    // No tools: no requests per tool to print.
    expect(changed.err).toMatch(/, 2 of 2 files derived, \d+ requests \(- per tool\)/);
    expect(module().replace(/\s/g, "")).toContain('"enum":["celsius","fahrenheit","kelvin"]');
  });
});
