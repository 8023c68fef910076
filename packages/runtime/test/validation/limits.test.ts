import { describe, expect, it } from "vitest";
import { asTool, type Tool, validateArguments } from "../../src/index.js";
import { MAX_FULL_CHECK_VALUES } from "../../src/repair/clone.js";
import { unknownToolText } from "../../src/runner/outcome.js";
import { MAX_FEEDBACK_CHARS } from "../../src/validation/feedback.js";

function schemaTool(properties: Record<string, unknown>): Tool {
  return asTool({
    name: "t",
    description: "A test tool.",
    parameters: { type: "object", properties, additionalProperties: false },
    execute: () => "ran",
  });
}

const numbers = schemaTool({ xs: { type: "array", items: { type: "number" } } });
const records = schemaTool({ xs: { type: "array", items: { type: "object" } } });

/** `{"xs":[item,item,...]}` with `n` items: the object, the array and the items are n + 2 values. */
const list = (item: string, n: number): string => `{"xs":[${Array.from({ length: n }, () => item).join(",")}]}`;

const stopped = `- … checking stopped at this first problem: arguments of more than ${MAX_FULL_CHECK_VALUES} values are not checked further or repaired`;

describe("validateArguments: the work per call is capped (issue 17, item 10)", () => {
  it("repairs numeric strings up to the limit of values", () => {
    const check = validateArguments(numbers, list('"1.5"', MAX_FULL_CHECK_VALUES - 2));
    expect(check.ok && check.repairs.length).toBe(MAX_FULL_CHECK_VALUES - 2);
  });

  it("does not repair past the limit: the first problem is reported, and says checking stopped", () => {
    const check = validateArguments(numbers, list('"1.5"', MAX_FULL_CHECK_VALUES - 1));
    expect(check.ok).toBe(false);
    expect(!check.ok && check.error.issues.map((i) => i.message)).toEqual([
      '/xs/0: expected number, got "1.5" (a string)',
    ]);
    expect(!check.ok && check.error.message.split("\n").slice(1, 3)).toEqual([
      '- /xs/0: expected number, got "1.5" (a string)',
      stopped,
    ]);
  });

  it("refuses 1,000,000 numeric strings in a number array with one issue instead of repairing them", () => {
    const check = validateArguments(numbers, list('"1.5"', 1_000_000));
    expect(!check.ok && check.error.issues).toHaveLength(1);
  });

  it("refuses 1,000,000 wrong items with the first one only", () => {
    const check = validateArguments(records, list("7", 1_000_000));
    expect(!check.ok && check.error.issues.map((i) => i.message)).toEqual(["/xs/0: expected object, got 7 (a number)"]);
    expect(!check.ok && check.error.message).toContain(stopped);
  });

  it("finds a problem at the end of a large value, and accepts a large valid one frozen", () => {
    const late = validateArguments(records, `${list("{}", 999_999).slice(0, -2)},"x"]}`);
    expect(!late.ok && late.error.issues.map((i) => i.message)).toEqual([
      '/xs/999999: expected object, got "x" (a string)',
    ]);
    const valid = validateArguments(numbers, list("1.5", 1_000_000));
    expect(valid.ok && Object.isFrozen((valid.args as { xs: number[] }).xs)).toBe(true);
  });
});

describe("feedback is bounded, whatever the model sent (issue 17, item 8)", () => {
  it("keeps a message about a 10 MB key short", () => {
    const check = validateArguments(numbers, `{"xs":[],"${"k".repeat(10_000_000)}":1}`);
    expect(!check.ok && check.error.message.length).toBeLessThan(400);
    expect(!check.ok && check.error.issues[0]?.path.length).toBe(10_000_001);
  });

  it("cuts the whole message, keeping its last line", () => {
    const properties = Object.fromEntries(
      Array.from({ length: 400 }, (_, i) => [`option_number_${i}`, { type: "string" }]),
    );
    const wide = asTool({
      name: "wide",
      description: "A tool with many keys.",
      parameters: { type: "object", properties, required: Object.keys(properties), additionalProperties: false },
      execute: () => "ran",
    });
    const check = validateArguments(wide, {});
    const message = !check.ok ? check.error.message : "";
    expect(message).toHaveLength(MAX_FEEDBACK_CHARS);
    expect(message.endsWith("… (feedback cut here)\nFix the arguments and call wide again.")).toBe(true);
  });

  it("cuts the name of an unknown tool", () => {
    expect(unknownToolText("x".repeat(50_000), ["a", "b"])).toBe(
      'Unknown tool "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…" (a name of 50000 characters). Available tools: a, b.',
    );
  });
});
