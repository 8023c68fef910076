import { readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { Schema } from "toolwright";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { type Loopback, nth, startLoopback } from "../../packages/runtime/test/providers/servers/loopback.js";
import { openAiChatRenderer } from "../../packages/runtime/test/providers/servers/openai-chat-server.js";
import { TempProject } from "./project.js";

// The compiled path of a typed answer: `schema<T>()` built by the real tspc with the real
// transformer, the emitted spec read back by the runtime, and an Agent whose `output` is
// such a schema run against a loopback Chat Completions server. The runtime half is tested
// with hand-built specs in packages/runtime/test; the other build paths (esbuild, Vite,
// `toolwright gen`, TypeScript 7) run the schema fixtures in test/build-paths/fixture-parity.

const project = new TempProject("schema-sites");
afterAll(() => project.remove());

const REPORT = `/** A weather report for one city. */
export interface Report {
  /** The city, as the user named it. */
  city: string;
  /** Degrees Celsius. @minimum -90 */
  celsius: number;
  /** When it was measured. */
  at: Date;
  note?: string;
}
`;

project.write(
  "src/report.ts",
  `import { Agent, type CompiledSchema, schema, type Schema, type SchemaOptions, schema as typed } from "toolwright";
import { FakeModel } from "toolwright/testing";

${REPORT}
export const report = schema<Report>();
export const named = schema<Report>({ name: "weather_report" });
export const cities: Schema<string[]> = schema();

/** The app's own helper: the compiler fills its CompiledSchema parameter, which it passes on. */
function answer<T>(options?: SchemaOptions, spec?: CompiledSchema): Schema<T> {
  return schema<T>(options, spec);
}
export const wrapped = answer<Report>({ description: "Through a helper." });
export const renamed = typed<number>();

const model = FakeModel.script(['{"city":"Paris","celsius":"18","at":"2026-03-01T09:30:00Z"}']);
const result = await new Agent({ name: "w", model, output: report }).run("Paris?");
console.log(JSON.stringify({ output: result.output, isDate: result.output?.at instanceof Date, sent: model.requests[0]?.output }));
`,
);
project.write(
  "src/agent.ts",
  `import { Agent, schema } from "toolwright";
import { resolveModel } from "toolwright/providers";

${REPORT}
/** Asks the model at \`baseURL\` for a report: result.output is a Report, checked by the compiled schema. */
export async function ask(baseURL: string) {
  const model = resolveModel("openai:gpt-5-mini", { baseURL, apiKey: "k" });
  const agent = new Agent({ name: "weather", model, output: schema<Report>() });
  const result = await agent.run("Do I need a coat in Paris?");
  const at: Date | undefined = result.output?.at;
  // @ts-expect-error result.output is a Report, not the model's text
  const text: string | undefined = result.output;
  void text;
  return { output: result.output, at, messages: result.messages.length };
}
`,
);
const build = project.build();
const emitted = readFileSync(path.join(project.dir, "dist", "report.js"), "utf8");

describe("schema<T>() built by tspc with the transformer", () => {
  it("builds with no error", () => {
    expect(build.output).toBe("");
    expect(build.status).toBe(0);
  });

  it("appends the spec the runtime reads: name, description, canonical schema, source, validator", async () => {
    const { report, named, cities, wrapped, renamed } = await import(
      pathToFileURL(path.join(project.dir, "dist", "report.js")).href
    );
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
    // Inferred from the annotation, and anonymous: the default name.
    expect(cities.jsonSchema).toEqual({ type: "array", items: { type: "string" } });
    expect(cities.name).toBe("answer");
    // Found by the signature, never by the function's name.
    expect(wrapped.jsonSchema).toEqual(report.jsonSchema);
    expect([wrapped.name, wrapped.description]).toEqual(["Report", "Through a helper."]);
    expect(renamed.jsonSchema).toEqual({ type: "number" });
    expect(emitted).toMatch(/schema\(undefined, \{"\$toolwrightSchema":1,"name":"Report"/);
    expect(emitted).toMatch(/"source":\{"file":"src\/report\.ts","line":16\}/);
    expect(emitted).toMatch(/"validator":function/);
    // The options stay as written; the spec follows them.
    expect(emitted).toMatch(/schema\(\{ name: "weather_report" \}, \{"\$toolwrightSchema":1/);
  });

  it("speaks Standard Schema with the compiled validator: typed values, paths, JSON Schema targets", async () => {
    const { report } = (await import(pathToFileURL(path.join(project.dir, "dist", "report.js")).href)) as {
      report: Schema<{ city: string; celsius: number; at: Date; note?: string }>;
    };
    const good = await report["~standard"].validate({ city: "Oslo", celsius: "-3", at: "2026-01-05T08:00:00Z" });
    expect(good.issues).toBeUndefined();
    const value = (good as { value: { celsius: number; at: Date } }).value;
    expect(value.celsius).toBe(-3);
    expect(value.at).toBeInstanceOf(Date);
    const bad = await report["~standard"].validate({ city: "Oslo", celsius: -100, at: "soon", wind: 3 });
    expect(bad.issues?.map((issue) => issue.path?.join("/") ?? "")).toEqual(expect.arrayContaining(["celsius", "at"]));
    expect(report.validate({ city: "Oslo" })).toMatchObject({ ok: false, message: expect.stringMatching(/"at"/) });
    const draft07 = report["~standard"].jsonSchema.input({ target: "draft-07" });
    expect(draft07).toMatchObject({
      $schema: "http://json-schema.org/draft-07/schema#",
      required: ["city", "celsius", "at"],
    });
    const openapi = report["~standard"].jsonSchema.output({ target: "openapi-3.0" });
    expect(openapi).toMatchObject({ type: "object", properties: { at: { type: "string", format: "date-time" } } });
  });

  it("runs: the agent's answer is checked, repaired and typed by the compiled schema", () => {
    const out = JSON.parse(project.run("dist/report.js")) as { output: unknown; isDate: boolean; sent: unknown };
    expect(out.output).toEqual({ city: "Paris", celsius: 18, at: "2026-03-01T09:30:00.000Z" });
    expect(out.isDate).toBe(true);
    expect(out.sent).toMatchObject({ name: "Report", description: "A weather report for one city." });
  });
});

describe("an Agent with output: schema<Report>() against a loopback Chat Completions server", () => {
  let server: Loopback | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it("sends the compiled schema as response_format, sends feedback on a wrong answer, and gives a validated Report", async () => {
    server = await startLoopback(openAiChatRenderer(), [
      { text: '{"city":"Paris","celsius":"warm","at":"2026-03-01T09:30:00Z"}' },
      { text: '{"city":"Paris","celsius":9.5,"at":"2026-03-01T09:30:00Z","note":null}' },
    ]);
    const { ask } = (await import(pathToFileURL(path.join(project.dir, "dist", "agent.js")).href)) as {
      ask(baseURL: string): Promise<{ output: unknown; at: unknown; messages: number }>;
    };
    const result = await ask(`${server.url}/v1`);
    // The strict form of the derived schema: every key required, the optional one nullable.
    expect(nth(server, 0).body.response_format).toEqual({
      type: "json_schema",
      json_schema: {
        name: "Report",
        description: "A weather report for one city.",
        strict: true,
        schema: {
          type: "object",
          properties: {
            city: { type: "string", description: "The city, as the user named it." },
            celsius: { type: "number", minimum: -90, description: "Degrees Celsius." },
            at: { type: "string", format: "date-time", description: "When it was measured." },
            note: { type: ["string", "null"] },
          },
          required: ["city", "celsius", "at", "note"],
          additionalProperties: false,
        },
      },
    });
    const feedback = JSON.stringify((nth(server, 1).body.messages as unknown[]).at(-1));
    expect(feedback).toContain('does not match the required JSON Schema \\"Report\\"');
    expect(feedback).toContain("/celsius: expected number");
    expect(result.output).toEqual({ city: "Paris", celsius: 9.5, at: new Date("2026-03-01T09:30:00Z") });
    expect(result.at).toBeInstanceOf(Date);
  });
});

describe("schema<T>() sites the build refuses", () => {
  const bad = new TempProject("schema-sites-errors");
  afterAll(() => bad.remove());
  bad.write(
    "src/bad.ts",
    `import { schema } from "toolwright";

interface Handler {
  name: string;
  run: () => void;
}

export const untyped = schema();
export const handler = schema<Handler>();
export const spaced = schema<{ a: string }>({ name: "has space" });
export function generic<T>() {
  return schema<T>();
}
export const fine = schema<{ a: string }>({ name: "fine" });
`,
  );
  const result = bad.build();

  it("fails the build with one error per problem, at the call's file:line, saying how to fix it", () => {
    expect(result.status).not.toBe(0);
    const lines = result.output.trim().split("\n");
    expect(lines).toEqual([
      expect.stringMatching(/^src\/bad\.ts\(8,\d+\): error TS990006: TW990006: schema\(\) has no type argument.*Fix: /),
      expect.stringMatching(
        /^src\/bad\.ts\(9,\d+\): error TS990001: TW990001: schema<Handler>\(\): `Handler\.run` is .*, which JSON cannot carry\. Fix: /,
      ),
      expect.stringMatching(
        /^src\/bad\.ts\(10,\d+\): error TS990003: TW990003: schema<\{ a: string \}>\(\): the name "has space" is not one providers accept/,
      ),
      expect.stringMatching(
        /^src\/bad\.ts\(12,\d+\): error TS990001: TW990001: schema<T>\(\): `T` is the unresolved type parameter `T`/,
      ),
    ]);
  });

  it("writes the rejected marker, so the emitted call throws the build's errors, and leaves good calls working", async () => {
    const js = readFileSync(path.join(bad.dir, "dist", "bad.js"), "utf8");
    expect(js).toMatch(/schema\(\{ name: "fine" \}, \{"\$toolwrightSchema":1/);
    await expect(import(pathToFileURL(path.join(bad.dir, "dist", "bad.js")).href)).rejects.toThrow(
      /schema\(\) was rejected by the build, which reported: src\/bad\.ts:8:\d+: TW990006: schema\(\) has no type argument/,
    );
  });
});
