/**
 * A typed final answer's validation: one answer type (a weather report with an enum, an
 * array of objects and optional members), checked by toolwright's `schema<T>()`, typia's
 * `validate` and zod's `safeParse`, in one run: a valid answer, the same answer as the JSON
 * text a provider sends, and a wrong answer with its error text. tinybench; medians.
 *
 * toolwright's schema is what the compiler derives for `Report` (here through a tool whose
 * one destructured parameter is a `Report`, the same derivation `schema<Report>()` gets),
 * with its generated validator, passed to `schema()` as the compiled spec the transformer
 * writes for `schema<Report>()`.
 * Run alone: `node scripts/bench/answer.mjs [--quick]`.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { Bench } from "tinybench";
import { SCHEMA_SPEC_VERSION, schema } from "toolwright";
import { z } from "zod";
import { PLUGINS, tsconfig } from "./generate/project.mjs";
import { PROJECTS_DIR, TSPC } from "./lib/paths.mjs";
import { timeNode } from "./lib/process-timer.mjs";
import { fmt, markdownTable, versus } from "./lib/table.mjs";

const REPORT = `/** A weather report for one city. */
export interface Report {
  /** The city, as the user named it. */
  city: string;
  /** Degrees Celsius now. */
  celsius: number;
  conditions: "sun" | "cloud" | "rain" | "snow";
  /** The next hours. */
  hourly: { hour: number; celsius: number; rain?: number }[];
  alerts?: string[];
}

/** Report a city's weather. */
export function answer({ city, celsius, conditions, hourly, alerts }: Report): Report {
  return { city, celsius, conditions, hourly, ...(alerts ? { alerts } : {}) };
}`;

const zodReport = z.strictObject({
  city: z.string(),
  celsius: z.number(),
  conditions: z.enum(["sun", "cloud", "rain", "snow"]),
  hourly: z.array(z.strictObject({ hour: z.number(), celsius: z.number(), rain: z.number().optional() })),
  alerts: z.array(z.string()).optional(),
});

const VALID = {
  city: "Paris",
  celsius: 18.5,
  conditions: "rain",
  hourly: Array.from({ length: 6 }, (_, hour) => ({ hour: hour + 9, celsius: 18 + hour / 2, rain: hour * 0.2 })),
  alerts: ["wind"],
};
const INVALID = { ...VALID, celsius: "warm", hourly: [{ hour: "9", celsius: 18 }, ...VALID.hourly.slice(1)] };

function write(file, text) {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${text}\n`);
}

/** Builds the answer type with both transformers; returns toolwright's spec of it and typia's validator. */
async function compile() {
  const dir = path.join(PROJECTS_DIR, "answer");
  rmSync(dir, { recursive: true, force: true });
  write(path.join(dir, "package.json"), JSON.stringify({ type: "module", private: true }));
  write(path.join(dir, "src", "report.ts"), REPORT);
  write(
    path.join(dir, "src", "toolwright.ts"),
    'import { tool } from "toolwright";\nimport { answer } from "./report.js";\n\nexport const { spec } = tool(answer);',
  );
  write(
    path.join(dir, "src", "typia.ts"),
    'import typia from "typia";\nimport type { Report } from "./report.js";\n\nexport const validate = typia.createValidate<Report>();',
  );
  for (const kind of Object.keys(PLUGINS)) {
    write(
      path.join(dir, `tsconfig.${kind}.json`),
      JSON.stringify(tsconfig(kind, true, ["src/report.ts", `src/${kind}.ts`])),
    );
    timeNode([TSPC, "-p", `tsconfig.${kind}.json`], { runs: 1, warmup: 0, cwd: dir });
  }
  const { spec } = await import(pathToFileURL(path.join(dir, "dist-toolwright", "toolwright.js")).href);
  const { validate } = await import(pathToFileURL(path.join(dir, "dist-typia", "typia.js")).href);
  if (!spec.validator) throw new Error("the compiler wrote no validator for Report");
  return { spec, validate };
}

/**
 * Measures a typed answer's validation and returns table rows.
 *
 * @returns {Promise<import("./lib/table.mjs").Row[]>}
 */
export async function benchAnswer({ time = 1000, log = () => {} } = {}) {
  const { spec, validate } = await compile();
  // What the transformer will write for schema<Report>(): the type's schema and validator.
  const report = schema(undefined, {
    $toolwrightSchema: SCHEMA_SPEC_VERSION,
    name: "Report",
    description: spec.description,
    schema: spec.parameters,
    validator: spec.validator,
    source: spec.source,
  });
  const typiaText = (errors) => errors.map((e) => `${e.path}: expected ${e.expected}, got ${JSON.stringify(e.value)}`);
  const systems = {
    toolwright: {
      ok: (value) => report.validate(value).ok,
      report: (value) => report.validate(value).message,
    },
    "typia.validate": {
      ok: (value) => validate(value).success,
      report: (value) => typiaText(validate(value).errors).join("\n"),
    },
    "zod safeParse": {
      ok: (value) => zodReport.safeParse(value).success,
      report: (value) => z.prettifyError(zodReport.safeParse(value).error),
    },
  };
  const text = JSON.stringify(VALID);
  for (const [name, s] of Object.entries(systems)) {
    if (s.ok(VALID) !== true || s.ok(JSON.parse(text)) !== true) throw new Error(`${name} rejected the valid answer`);
    if (s.ok(INVALID) !== false) throw new Error(`${name} accepted the invalid answer`);
  }
  const kinds = [
    ["valid answer", (s) => s.ok(VALID)],
    // What a provider delivers: the answer as JSON text, parsed by each system's user.
    ["valid answer as JSON text", (s) => s.ok(JSON.parse(text))],
    ["invalid answer + error text", (s) => s.report(INVALID)],
  ];
  const rows = [];
  for (const [label, run] of kinds) {
    const bench = new Bench({ time, warmupTime: time });
    let sink = 0;
    for (const [name, s] of Object.entries(systems)) {
      bench.add(name, () => {
        const out = run(s);
        sink += out === true ? 1 : out === false ? 2 : out.length;
      });
    }
    log(`answer: ${label}`);
    await bench.run();
    if (sink === 0) throw new Error("validation results were never used");
    const ops = Object.fromEntries(bench.tasks.map((t) => [t.name, 1000 / t.result.latency.p50]));
    for (const [name, value] of Object.entries(ops)) {
      rows.push({
        section: `Typed answer (Report: 5 members, 6 hourly objects), ${label}`,
        name,
        value,
        unit: "answers/s",
        note: `${fmt(1e6 / value)} µs/answer`,
        ...(name === "toolwright" ? {} : { ratio: versus(1 / ops.toolwright, 1 / value) }),
      });
    }
  }
  return rows;
}

if (process.argv[1] === import.meta.filename) {
  const quick = process.argv.includes("--quick");
  console.log(markdownTable(await benchAnswer({ time: quick ? 100 : 1000, log: (l) => console.error(l) })));
}
