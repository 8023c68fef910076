import ts from "typescript";
import { describe, expect, it } from "vitest";
import {
  registerSpecs,
  SPEC_VERSION,
  ToolDefinitionError,
  type ToolSpec,
  tool,
  toolsOf,
  toTool,
} from "../src/index.js";

// The registry `toolwright gen` modules fill: tool(fn), a bare function in a tool list and
// an `@tool` method find their spec by fn.name and the `name` option when none was compiled.

function spec(name: string, param: string): ToolSpec {
  return {
    $toolwright: SPEC_VERSION,
    name,
    description: `The ${name} tool, generated.`,
    parameters: {
      type: "object",
      properties: { [param]: { type: "string" } },
      required: [param],
      additionalProperties: false,
    },
    slots: [{ kind: "arg", name: param }],
    flags: { readOnly: true },
    source: { file: "src/tools.ts", line: 3 },
  };
}

function greetGenerated(who: string): string {
  return `hello ${who}`;
}

function shoutGenerated(text: string): string {
  return text.toUpperCase();
}

function neverGenerated(x: string): string {
  return x;
}

registerSpecs([
  { fn: "greetGenerated", spec: spec("greetGenerated", "who") },
  { fn: "shoutGenerated", name: "shout", spec: spec("shout", "text") },
  { fn: "", name: "inline_echo", spec: spec("inline_echo", "value") },
  { fn: "escalateGenerated", spec: spec("escalateGenerated", "ticket") },
]);

// A class with a bare `@tool`, as tsx or SWC run it: no transformer rewrote the decorator.
const deskSource = `
class Desk {
  @tool escalateGenerated(ticket) { return "escalated " + ticket; }
}
return new Desk();
`;

/** Compiles the class with the real TypeScript emitter, in one decorator flavour, and runs it. */
function deskWith(experimentalDecorators: boolean): object {
  const { outputText } = ts.transpileModule(deskSource, {
    compilerOptions: { target: ts.ScriptTarget.ES2022, experimentalDecorators, allowJs: true },
    fileName: "desk.js",
  });
  return new Function("tool", outputText)(tool) as object;
}

describe("generated specs", () => {
  it("tool(fn) uses the spec registered for the function's name", async () => {
    const greet = tool(greetGenerated);
    expect(greet.name).toBe("greetGenerated");
    expect(greet.flags).toEqual({ readOnly: true });
    expect((await greet.invoke({ who: "Ada" })).value).toBe("hello Ada");
  });

  it("keys by the name option too, so one function can back several tools", async () => {
    const shout = tool(shoutGenerated, { name: "shout" });
    expect((await shout.invoke({ text: "hi" })).value).toBe("HI");
    expect(() => tool(shoutGenerated)).toThrow(ToolDefinitionError);
    const echo = tool((value: string) => value, { name: "inline_echo" });
    expect((await echo.invoke({ value: "x" })).value).toBe("x");
  });

  it("gives a bare function in a tool list its generated spec", async () => {
    const greet = toTool(greetGenerated);
    expect(greet.parameters).toEqual(spec("greetGenerated", "who").parameters);
  });

  it.each([
    ["TC39", false],
    ["experimentalDecorators", true],
  ])("gives a bare %s @tool method the spec registered under its name, as @tool() does", async (_label, legacy) => {
    const [escalate] = toolsOf(deskWith(legacy));
    expect(escalate?.name).toBe("escalateGenerated");
    expect((await escalate?.invoke({ ticket: "T-1" }))?.value).toBe("escalated T-1");
  });

  it("still throws the missing-spec error for a function nothing registered", () => {
    expect(() => tool(neverGenerated)).toThrow(/tool "neverGenerated" .* has no compiled spec/);
  });
});
