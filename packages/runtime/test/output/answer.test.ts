import { describe, expect, it } from "vitest";
import { answerShape, readAnswer } from "../../src/output/answer.js";
import { PartialAnswer } from "../../src/output/partial-answer.js";
import { compiledSchema, report } from "./compiled.js";

// How a model's final answer is read: the wire shape, lenient parsing of what it wrote, and
// the answer as it streams.

const list = () =>
  compiledSchema<number[]>({ type: "array", items: { type: "integer" }, $defs: { Unused: { type: "string" } } });

describe("answerShape", () => {
  it("sends an object type as it is", () => {
    const shape = answerShape(report());
    expect(shape.wrapped).toBe(false);
    expect(shape.format.schema).toBe(report().jsonSchema);
    expect(shape.format).toMatchObject({ name: "Report", description: "A weather report for one city." });
  });

  it("wraps any other root in { answer }, lifting $defs to the new root", () => {
    const shape = answerShape(list());
    expect(shape.wrapped).toBe(true);
    expect(shape.format.schema).toEqual({
      type: "object",
      properties: { answer: { type: "array", items: { type: "integer" } } },
      required: ["answer"],
      additionalProperties: false,
      $defs: { Unused: { type: "string" } },
    });
    const recursive = compiledSchema({ $ref: "#/$defs/Tree", $defs: { Tree: { type: "object" } } });
    expect(answerShape(recursive).wrapped).toBe(true);
  });
});

describe("readAnswer", () => {
  const shape = answerShape(report());
  const good = { city: "Paris", celsius: 1, at: "2026-01-01T00:00:00Z" };

  it("takes strict JSON, a fenced block, and JSON inside prose (as a repair)", () => {
    expect(readAnswer(shape, JSON.stringify(good))).toMatchObject({ ok: true, repairs: [] });
    expect(readAnswer(shape, `\`\`\`json\n${JSON.stringify(good)}\n\`\`\``)).toMatchObject({
      ok: true,
      repairs: [{ kind: "json_repaired", detail: "removed a code fence" }],
    });
    expect(readAnswer(shape, `Sure! ${JSON.stringify(good)} Anything else?`)).toMatchObject({
      ok: true,
      repairs: [{ kind: "json_repaired", detail: "took the JSON out of the text around it" }],
    });
  });

  it("names an empty reply and text that holds no JSON", () => {
    expect(readAnswer(shape, "  ")).toEqual({
      ok: false,
      issues: [{ code: "missing_answer", path: "", message: "the reply held no answer" }],
    });
    const prose = readAnswer(shape, "It is sunny {probably}.");
    expect(prose.ok ? [] : prose.issues.map((i) => i.code)).toEqual(["invalid_json"]);
  });

  it("reports problems inside { answer } at the paths the model wrote, and takes a bare answer as a repair", () => {
    const wrapped = answerShape(list());
    const wrong = readAnswer(wrapped, '{"answer":[1,"x"],"note":1}');
    expect(wrong.ok ? [] : wrong.issues.map((i) => [i.code, i.path])).toEqual([
      ["unexpected_key", "/note"],
      ["invalid_type", "/answer/1"],
    ]);
    expect(readAnswer(wrapped, "[1, 2]")).toEqual({
      ok: true,
      value: [1, 2],
      repairs: [{ kind: "json_repaired", path: "", detail: 'took the answer without its { "answer" } wrapper' }],
    });
  });
});

describe("PartialAnswer", () => {
  it("gives each new value once, strings as far as they came and numbers only whole", () => {
    const partial = new PartialAnswer(false);
    const seen = ['{"ci', 'ty":"Pa', "ris", '","celsius":1', "8.5", "}"].map((piece) => partial.push(piece));
    expect(seen).toEqual([
      {},
      { city: "Pa" },
      { city: "Paris" },
      undefined,
      undefined,
      { city: "Paris", celsius: 18.5 },
    ]);
  });

  it("unwraps { answer } and starts over on reset", () => {
    const partial = new PartialAnswer(true);
    expect(partial.push('{"answer":[1,')).toEqual([1]);
    partial.reset();
    expect(partial.push('{"answer":["a"')).toEqual(["a"]);
  });
});
