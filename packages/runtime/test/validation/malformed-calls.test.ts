import { afterAll, describe, expect, it } from "vitest";
import { type CompiledSpec, SPEC_VERSION, ToolArgumentError, tool, validateArguments } from "../../src/index.js";
import { cases, parameters } from "./malformed-cases.js";

const spec = {
  $toolwright: SPEC_VERSION,
  name: "book_flight",
  description: "Book a flight.",
  parameters,
  slots: ["origin", "destination", "date", "cabin", "passengers", "travellers", "refundable", "notes", "metadata"].map(
    (name) => ({ kind: "arg", name }),
  ),
  flags: {},
  source: { file: "flights.ts", line: 12 },
} as CompiledSpec;

let bodyRuns = 0;
const bookFlight = tool(
  (..._args: unknown[]) => {
    bodyRuns++;
    return "booked";
  },
  undefined,
  spec,
);

const accepted =
  'Accepted keys: origin (string, required); destination (string, required); date (date string, required); cabin (one of "economy", "business", "first"); passengers (integer); travellers (array of object, required); refundable (boolean); notes (string or null); metadata (object).';

function feedback(problems: readonly string[]): string {
  return [
    'Invalid arguments for tool "book_flight":',
    ...problems.map((p) => `- ${p}`),
    accepted,
    "Fix the arguments and call book_flight again.",
  ].join("\n");
}

const prototypeKeys = Object.getOwnPropertyNames(Object.prototype).sort();

function assertNoPollution(): void {
  expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeKeys);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  expect(Object.hasOwn(Array.prototype, "polluted")).toBe(false);
}

describe("malformed calls get one exact feedback message, and the tool never runs", () => {
  it("has at least 50 cases", () => {
    expect(cases.length).toBeGreaterThanOrEqual(50);
  });

  it.each(cases)("$name", async ({ raw, problems }) => {
    const check = validateArguments(bookFlight, raw);
    expect(check.ok).toBe(false);
    if (check.ok) return;
    expect(check.error).toBeInstanceOf(ToolArgumentError);
    expect(check.error.outcome).toBe("invalid_arguments");
    expect(check.error.message).toBe(feedback(problems));
    const invoked = bookFlight.invoke(raw);
    await expect(invoked).rejects.toBeInstanceOf(ToolArgumentError);
    await expect(invoked).rejects.toThrow(check.error.message);
    expect(bodyRuns).toBe(0);
    assertNoPollution();
  });

  it("gives a thrown rejection the stack of the call that threw it, not of the validator", async () => {
    const thrown = (await bookFlight.invoke({}).catch((error: unknown) => error)) as ToolArgumentError;
    expect(thrown).toBeInstanceOf(ToolArgumentError);
    expect(thrown.stack?.split("\n")[0]).toBe(`ToolArgumentError: ${thrown.message.split("\n")[0]}`);
    expect(thrown.stack).toContain("malformed-calls.test.ts");
    expect(thrown.stack).not.toContain("validation/arguments");
  });

  afterAll(() => {
    expect(bodyRuns).toBe(0);
  });
});
