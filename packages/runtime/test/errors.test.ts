import { describe, expect, it } from "vitest";
import {
  Retry,
  ToolArgumentError,
  ToolDefinitionError,
  ToolError,
  ToolExceptionError,
  ToolShapeError,
  ToolTimeoutError,
  ToolwrightError,
} from "../src/index.js";

describe("the error taxonomy", () => {
  it("maps every call error to one outcome kind", () => {
    const issues = [{ code: "missing_key", path: "/id", message: 'missing required key "id"' }];
    const cases = [
      [new ToolArgumentError("m", "t", issues), "invalid_arguments"],
      [new ToolError("m"), "tool_error"],
      [new Retry("try again"), "retry"],
      [new ToolTimeoutError("t", 5), "timeout"],
      [new ToolShapeError("m", "t", issues), "tool_error"],
      [new ToolExceptionError("t", new Error("x")), "tool_error"],
    ] as const;
    for (const [error, outcome] of cases) {
      expect(error.outcome).toBe(outcome);
      expect(error).toBeInstanceOf(ToolwrightError);
      expect(error).toBeInstanceOf(Error);
    }
  });

  it("keeps the extra data in typed fields", () => {
    expect(new ToolError("down", { retryable: true }).retryable).toBe(true);
    expect(new ToolError("down").retryable).toBe(false);
    expect(new Retry("use a shorter query").hint).toBe("use a shorter query");
    const timeout = new ToolTimeoutError("slow", 250);
    expect([timeout.toolName, timeout.timeoutMs]).toEqual(["slow", 250]);
    expect(timeout.message).toMatch(/tool "slow" did not finish within 250 ms.*timeoutMs/);
    const cause = new RangeError("boom");
    const wrapped = new ToolExceptionError("t", cause);
    expect([wrapped.cause, wrapped.message]).toEqual([cause, 'tool "t" threw: boom']);
    expect(new ToolDefinitionError("m", "t").toolName).toBe("t");
  });

  it("names each class", () => {
    expect([new ToolError("m").name, new Retry("h").name, new ToolTimeoutError("t", 1).name]).toEqual([
      "ToolError",
      "Retry",
      "ToolTimeoutError",
    ]);
  });
});
