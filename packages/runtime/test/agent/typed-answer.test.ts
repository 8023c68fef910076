import { describe, expect, expectTypeOf, it } from "vitest";
import {
  Agent,
  type AgentStreamEvent,
  InvalidAnswerError,
  MaxTurnsExceededError,
  type PartialOutput,
  type RunResult,
} from "../../src/index.js";
import { FakeModel } from "../../src/testing/index.js";
import { compiledSchema, REPORT_SCHEMA, type Report, report } from "../output/compiled.js";
import { stringTool } from "./helpers.js";

// The typed final answer, through the loop: what each request carries, how an answer is
// read and checked, the feedback and retries, and the answer's type on the result.

const GOOD = '{"city":"Paris","celsius":18.5,"at":"2026-03-01T09:30:00Z"}';

describe("an agent with an output schema (native mode)", () => {
  it("sends the format with every request and gives the checked answer, dates revived, as result.output", async () => {
    const model = FakeModel.script([{ toolCalls: [{ name: "lookup", args: { id: "Paris" } }] }, GOOD]);
    const agent = new Agent({
      name: "weather",
      model,
      tools: [stringTool("lookup", () => "18.5 C")],
      output: report(),
    });
    const result = await agent.run("Weather in Paris?");
    expectTypeOf(result.output).toEqualTypeOf<Report | undefined>();
    expect(result.status).toBe("completed");
    expect(result.output).toEqual({ city: "Paris", celsius: 18.5, at: new Date("2026-03-01T09:30:00Z") });
    expect(result.output?.at).toBeInstanceOf(Date);
    expect(Object.isFrozen(result.output)).toBe(false);
    for (const request of model.requests) {
      expect(request.output).toEqual({
        name: "Report",
        description: "A weather report for one city.",
        schema: expect.objectContaining({ required: ["city", "celsius", "at"] }),
      });
      expect(request.toolChoice).toBeUndefined();
    }
    // The transcript keeps the answer as the model wrote it.
    expect(result.messages.at(-1)).toMatchObject({ role: "assistant", content: GOOD });
    expect(JSON.parse(JSON.stringify(result)).output).toBe(JSON.stringify(result.output));
    expect(result.trace()).toContain('answer: {"city":"Paris"');
  });

  it("repairs what is safe, and drops the nulls strict mode adds for optional keys", async () => {
    const model = FakeModel.script([
      'Here it is:\n```json\n{"city":"Oslo","celsius":"-3","at":"2026-01-02T08:00:00+01:00","note":null}\n```',
    ]);
    const result = await new Agent({ name: "w", model, output: report() }).run("Oslo?");
    expect(result.output).toEqual({ city: "Oslo", celsius: -3, at: new Date("2026-01-02T07:00:00Z") });
  });

  it("sends feedback for an answer that does not fit, and takes the corrected one", async () => {
    const model = FakeModel.script(['{"city":"Paris","celsius":"warm","wind":3}', "Sorry, it is 18 degrees.", GOOD]);
    const result = await new Agent({ name: "w", model, output: report() }).run("Paris?");
    expect(result.output?.celsius).toBe(18.5);
    expect(model.requests).toHaveLength(3);
    expect(model.requests[1]?.messages.at(-1)).toEqual({
      role: "user",
      content: [
        'Your final answer does not match the required JSON Schema "Report":',
        '- unexpected key "wind"',
        '- missing required key "at" (date-time string)',
        '- /celsius: expected number, got "warm" (a string)',
        "Reply with the corrected answer: JSON only, nothing around it.",
      ].join("\n"),
    });
    expect(model.requests[2]?.messages.at(-1)?.content).toContain(
      '- the answer is not JSON: got "Sorry, it is 18 degrees." (a string)',
    );
    expect(result.messages.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant", "user", "assistant"]);
  });

  it("ends with InvalidAnswerError, carrying the transcript, once outputRetries are spent", async () => {
    const model = FakeModel.script(['{"city":1}', '{"city":2}']);
    const agent = new Agent({ name: "w", model, output: report(), outputRetries: 1 });
    const error = await agent.run("Paris?").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidAnswerError);
    const refused = error as InvalidAnswerError;
    expect(refused.attempts).toBe(2);
    expect(refused.issues.map((i) => i.path)).toEqual(["/celsius", "/at", "/city"]);
    expect(refused.message).toMatch(/^agent "w" gave 2 final answers that did not match its output schema/);
    expect(refused.result.status).toBe("stopped");
    expect(refused.result.messages.at(-1)).toMatchObject({ role: "assistant", content: '{"city":2}' });
    expect(model.remaining).toBe(0);
  });

  it("counts the turns of retried answers against maxTurns", async () => {
    const model = FakeModel.script(['{"city":1}', '{"city":2}', GOOD]);
    const agent = new Agent({ name: "w", model, output: report(), outputRetries: 5, maxTurns: 2 });
    const error = await agent.run("Paris?").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MaxTurnsExceededError);
    expect(model.remaining).toBe(1);
  });

  it("asks for a shorter answer when the last one was cut off at the token limit, never repairing it", async () => {
    const model = FakeModel.script([{ text: '{"city":"Paris","celsius":18', finishReason: "length" }, GOOD]);
    const result = await new Agent({ name: "w", model, output: report() }).run("Paris?");
    expect(result.output?.city).toBe("Paris");
    expect(model.requests[1]?.messages.at(-1)?.content).toContain("the answer was cut off at the output token limit");
  });

  it("sends a type that is not an object inside { answer }, and gives back the bare value", async () => {
    const list = compiledSchema<string[]>(
      { type: "array", items: { type: "string" }, minItems: 1 },
      { name: "cities" },
    );
    const model = FakeModel.script(['{"answer":[]}', '{"answer":["Paris","Oslo"]}']);
    const result = await new Agent({ name: "w", model, output: list }).run("Two cities?");
    expectTypeOf(result.output).toEqualTypeOf<string[] | undefined>();
    expect(result.output).toEqual(["Paris", "Oslo"]);
    expect(model.requests[0]?.output?.schema).toEqual({
      type: "object",
      properties: { answer: { type: "array", items: { type: "string" }, minItems: 1 } },
      required: ["answer"],
      additionalProperties: false,
    });
    expect(model.requests[1]?.messages.at(-1)?.content).toContain("- /answer: must have at least 1 item");
    expect(model.requests[1]?.messages.at(-1)?.content).toContain('as the object {"answer": ...}');
  });

  it("takes the output of one run in place of the agent's, typed by it", async () => {
    const model = FakeModel.script(["Plain text.", '{"answer":42}']);
    const agent = new Agent({ name: "w", model });
    const plain = await agent.run("Hi");
    expectTypeOf(plain.output).toEqualTypeOf<string | undefined>();
    expect(plain.output).toBe("Plain text.");
    const count = compiledSchema<number>({ type: "integer" }, { name: "count" });
    const typed = await agent.run("How many?", { output: count });
    expectTypeOf(typed).toEqualTypeOf<RunResult<number>>();
    expect(typed.output).toBe(42);
    expect(model.requests[0]?.output).toBeUndefined();
    expect(model.requests[1]?.output?.name).toBe("count");
  });

  it("refuses outputRetries that are not a whole number before any request", async () => {
    const model = FakeModel.script([GOOD]);
    await expect(new Agent({ name: "w", model, output: report(), outputRetries: -1 }).run("x")).rejects.toThrow(
      'agent "w": outputRetries must be a whole number of at least 0, got -1.',
    );
    expect(model.requests).toHaveLength(0);
  });
});

describe("an agent with an output schema (tool mode)", () => {
  const toolModel = (...turns: Parameters<typeof FakeModel.script>[0]) =>
    FakeModel.script(turns, { outputMode: "tool" });

  it("adds a final_answer tool whose parameters are the schema, forces a tool call, and ends when it is accepted", async () => {
    const model = toolModel(
      { toolCalls: [{ name: "lookup", args: { id: "Paris" } }] },
      { toolCalls: [{ name: "final_answer", args: JSON.parse(GOOD) }] },
    );
    const agent = new Agent({ name: "w", model, tools: [stringTool("lookup", () => "18.5")], output: report() });
    const result = await agent.run("Paris?");
    expect(result.output).toEqual({ city: "Paris", celsius: 18.5, at: new Date("2026-03-01T09:30:00Z") });
    expect(Object.isFrozen(result.output)).toBe(false);
    for (const request of model.requests) {
      expect(request.toolChoice).toBe("required");
      expect(request.output).toBeUndefined();
      expect(request.tools.map((t) => t.name)).toEqual(["final_answer", "lookup"]);
    }
    const answerTool = model.requests[0]?.tools[0];
    expect(answerTool?.parameters).toBe(REPORT_SCHEMA);
    expect(answerTool?.description).toMatch(/^Give your final answer \(A weather report for one city\.\)/);
    // Every call has its result: the transcript stays well-formed for a next run.
    expect(result.messages.at(-1)).toMatchObject({ role: "tool", toolName: "final_answer", outcome: "ok" });
    expect(agent.toolNames).toEqual(["lookup"]);
  });

  it("sends a wrong answer's problems as the tool's invalid_arguments result, and counts it against outputRetries", async () => {
    const model = toolModel(
      { toolCalls: [{ name: "final_answer", args: { city: "Paris", celsius: "hot" } }] },
      { toolCalls: [{ name: "final_answer", args: JSON.parse(GOOD) }] },
    );
    const result = await new Agent({ name: "w", model, output: report() }).run("Paris?");
    expect(result.output?.celsius).toBe(18.5);
    expect(model.requests[1]?.messages.at(-1)).toMatchObject({
      role: "tool",
      outcome: "invalid_arguments",
      content: expect.stringMatching(/^Invalid arguments for tool "final_answer":\n- missing required key "at"/),
    });
    const failing = toolModel(
      { toolCalls: [{ name: "final_answer", args: { city: 1 } }] },
      { toolCalls: [{ name: "final_answer", args: { city: 2 } }] },
    );
    const error = await new Agent({ name: "w", model: failing, output: report(), outputRetries: 1 })
      .run("Paris?")
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidAnswerError);
    expect((error as InvalidAnswerError).issues.map((i) => i.code)).toContain("missing_key");
  });

  it("takes a text answer from a server that ignored the forced tool choice, and asks for the tool when it does not fit", async () => {
    const model = toolModel("I think it is sunny.", GOOD);
    const result = await new Agent({ name: "w", model, output: report() }).run("Paris?");
    expect(result.output?.city).toBe("Paris");
    expect(model.requests[1]?.messages.at(-1)?.content).toMatch(
      /Give it by calling the final_answer tool, with the answer as its arguments\.$/,
    );
  });

  it("refuses an agent whose own tool is called final_answer", async () => {
    const model = toolModel(GOOD);
    const agent = new Agent({ name: "w", model, tools: [stringTool("final_answer", () => "x")], output: report() });
    await expect(agent.run("x")).rejects.toThrow(/has a tool named "final_answer"/);
  });
});

describe("a streamed typed answer", () => {
  async function events<O>(stream: AsyncGenerator<AgentStreamEvent<O>, RunResult<O>>) {
    const seen: AgentStreamEvent<O>[] = [];
    for await (const event of stream) seen.push(event);
    return seen;
  }

  it("yields the answer as it arrives, then the checked one (native)", async () => {
    const model = FakeModel.script([GOOD], { chunkSize: 9 });
    const agent = new Agent({ name: "w", model, output: report() });
    const seen = await events(agent.stream("Paris?"));
    const partials = seen.flatMap((e) => (e.type === "partial-output" ? [e.output] : []));
    expectTypeOf(partials).toEqualTypeOf<PartialOutput<Report>[]>();
    expect(partials.length).toBeGreaterThan(2);
    // Strings show as far as they arrived: the first piece is `{"city":"`.
    expect(partials[0]).toEqual({ city: "" });
    expect(partials).toContainEqual({ city: "Paris" });
    // Numbers only once whole; the date still its string.
    expect(partials.some((p) => p.celsius !== undefined && p.celsius !== 18.5)).toBe(false);
    expect(partials.at(-1)).toEqual({ city: "Paris", celsius: 18.5, at: "2026-03-01T09:30:00Z" });
    const finish = seen.at(-1);
    expect(finish?.type === "run-finish" && finish.result.output?.at).toEqual(new Date("2026-03-01T09:30:00Z"));
  });

  it("yields the final_answer call's arguments as they arrive (tool mode)", async () => {
    const model = FakeModel.script([{ toolCalls: [{ name: "final_answer", args: JSON.parse(GOOD) }] }], {
      chunkSize: 12,
      outputMode: "tool",
    });
    const seen = await events(new Agent({ name: "w", model, output: report() }).stream("Paris?"));
    const partials = seen.flatMap((e) => (e.type === "partial-output" ? [e.output] : []));
    expect(partials.length).toBeGreaterThan(2);
    expect(partials.at(-1)).toEqual({ city: "Paris", celsius: 18.5, at: "2026-03-01T09:30:00Z" });
  });
});
