import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { TempProject } from "./project.js";

// The compiled path of a typed answer: `schema<T>()` built by the real tspc with the real
// transformer, and the emitted spec run through an Agent. The runtime half (output/spec.ts
// documents the exact spec the compiler must append) is tested with hand-built specs in
// packages/runtime/test; these tests run once the transformer writes `schema<T>()` sites
// (issue 29's compiler half), and report as skipped, saying so, until then. The same
// expectations hold for esbuild, Vite, `toolwright gen` and TypeScript 7 (test/build-paths).

const project = new TempProject("schema-sites");
afterAll(() => project.remove());

project.write(
  "src/report.ts",
  `import { Agent, schema, type Schema } from "toolwright";
import { FakeModel } from "toolwright/testing";

/** A weather report for one city. */
export interface Report {
  /** The city, as the user named it. */
  city: string;
  /** Degrees Celsius. @minimum -90 */
  celsius: number;
  /** When it was measured. */
  at: Date;
  note?: string;
}

export const report = schema<Report>();
export const named = schema<Report>({ name: "weather_report" });
export const cities: Schema<string[]> = schema();

const model = FakeModel.script(['{"city":"Paris","celsius":"18","at":"2026-03-01T09:30:00Z"}']);
const result = await new Agent({ name: "w", model, output: report }).run("Paris?");
console.log(JSON.stringify({ output: result.output, isDate: result.output?.at instanceof Date, sent: model.requests[0]?.output }));
`,
);
const build = project.build();
const emitted = (() => {
  try {
    return readFileSync(path.join(project.dir, "dist", "report.js"), "utf8");
  } catch {
    return "";
  }
})();
/** Whether this transformer writes `schema<T>()` sites yet: the call gained its spec argument. */
const writesSchemas = emitted.includes('"$toolwrightSchema"');

describe.skipIf(!writesSchemas)("schema<T>() built by tspc with the transformer", () => {
  it("builds with no error", () => {
    expect(build.output).toBe("");
    expect(build.status).toBe(0);
  });

  it("appends the spec the runtime reads: name, description, canonical schema, source, validator", async () => {
    const { report, named, cities } = await import(path.join(project.dir, "dist", "report.js"));
    expect(report.name).toBe("Report");
    expect(report.description).toBe("A weather report for one city.");
    expect(report.jsonSchema).toEqual({
      type: "object",
      properties: {
        city: { type: "string", description: "The city, as the user named it." },
        celsius: { type: "number", minimum: -90, description: "Degrees Celsius." },
        at: { type: "string", format: "date-time", "x-toolwright-date": true, description: "When it was measured." },
        note: { type: "string" },
      },
      required: ["city", "celsius", "at"],
      additionalProperties: false,
    });
    expect(named.name).toBe("weather_report");
    expect(cities.jsonSchema).toEqual({ type: "array", items: { type: "string" } });
    expect(emitted).toMatch(/schema\(undefined, \{"\$toolwrightSchema":1,"name":"Report"/);
    expect(emitted).toMatch(/"validator":function/);
  });

  it("runs: the agent's answer is checked, repaired and typed by the compiled schema", () => {
    const out = JSON.parse(project.run("dist/report.js")) as { output: unknown; isDate: boolean; sent: unknown };
    expect(out.output).toEqual({ city: "Paris", celsius: 18, at: "2026-03-01T09:30:00.000Z" });
    expect(out.isDate).toBe(true);
    expect(out.sent).toMatchObject({ name: "Report", description: "A weather report for one city." });
  });
});

describe.skipIf(writesSchemas)("schema<T>() before the transformer writes its sites", () => {
  it("type-checks, and fails at once at run time, naming the call and the fix", () => {
    expect(build.output).toBe("");
    expect(() => project.run("dist/report.js")).toThrow(
      /schema\(\) \(called .*report\.js:\d+:\d+\) has no compiled spec/,
    );
  });
});
