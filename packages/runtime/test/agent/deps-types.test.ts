import { describe, expect, expectTypeOf, it } from "vitest";
import { Agent, type CompiledSpec, SPEC_VERSION, type ToolContext, type ToolDeps, tool } from "../../src/index.js";
import { FakeModel } from "../../src/testing/index.js";

// An agent's tools decide what `run` needs: a tool taking `ToolContext<Db>` makes
// `agent.run(input, { deps })` require a `Db`. The type assertions below are checked by
// the package's type-check (`tsc -p tsconfig.json --noEmit`, part of the test command):
// each `@ts-expect-error` fails the type-check if the line it covers compiles.

interface Db {
  readonly tickets: ReadonlyMap<string, string>;
}
interface Mailer {
  send(to: string): void;
}

function lookupTicket(id: string, ctx: ToolContext<Db>): string {
  return ctx.deps.tickets.get(id) ?? "no such ticket";
}
function notify(to: string, ctx?: ToolContext<Mailer>): string {
  ctx?.deps.send(to);
  return `notified ${to}`;
}
function shout(text: string, ctx: ToolContext): string {
  return `${text.toUpperCase()} (${ctx.toolName})`;
}

const spec: CompiledSpec = {
  $toolwright: SPEC_VERSION,
  name: "lookupTicket",
  description: "Look up a ticket by its id.",
  parameters: {
    type: "object",
    properties: { id: { type: "string" } },
    required: ["id"],
    additionalProperties: false,
  },
  slots: [{ kind: "arg", name: "id" }, { kind: "context" }],
  flags: { readOnly: true },
  source: { file: "tickets.ts", line: 1 },
};

const db: Db = { tickets: new Map([["T-1", "printer on fire"]]) };
const mailer: Mailer = { send: () => {} };

describe("Agent infers Deps from its tools", () => {
  it("the deps a run is given reach a tool made with tool(fn) that takes ToolContext<Db>", async () => {
    const model = FakeModel.script([{ toolCalls: [{ name: "lookupTicket", args: { id: "T-1" } }] }, "done"]);
    const agent = new Agent({ name: "desk", model, tools: [tool(lookupTicket, undefined, spec)] });
    const result = await agent.run("What is T-1?", { deps: db });
    expect(result.messages.find((m) => m.role === "tool")?.content).toBe("printer on fire");
  });

  it("types: run requires every deps object the tools ask for, and rejects a wrong one", () => {
    expectTypeOf<ToolDeps<[typeof lookupTicket]>>().toEqualTypeOf<Db>();
    expectTypeOf<ToolDeps<[typeof lookupTicket, typeof notify]>>().toEqualTypeOf<Db & Mailer>();
    expectTypeOf<ToolDeps<[typeof shout]>>().toBeUnknown();

    // Never run: the cases only need to type-check (bare functions get their spec from the compiler).
    const cases = (model: FakeModel) => {
      const desk = new Agent({ name: "desk", model, tools: [lookupTicket, shout] });
      desk.run("What is T-1?", { deps: db });
      // @ts-expect-error the tools need a Db, and no deps were given
      desk.run("What is T-1?");
      // @ts-expect-error a deps object that is not a Db
      desk.run("What is T-1?", { deps: { tickets: "none" } });
      // @ts-expect-error stream needs the deps too
      desk.stream("What is T-1?", {});

      const compiled = new Agent({ name: "compiled", model, tools: [tool(lookupTicket)] });
      // @ts-expect-error a tool made by tool(fn) asks for its function's deps
      compiled.run("What is T-1?");

      const both = new Agent({ name: "both", model, tools: [lookupTicket, notify] });
      both.run("Tell the owner of T-1", { deps: { ...db, ...mailer } });
      // @ts-expect-error half of the deps
      both.run("Tell the owner of T-1", { deps: db });

      const plain = new Agent({ name: "plain", model, tools: [shout] });
      plain.run("hi");

      const annotated: Agent<Db> = new Agent<Db>({ name: "annotated", model });
      annotated.run("What is T-1?", { deps: db });
      // @ts-expect-error an explicit Agent<Db> needs a Db too
      annotated.run("What is T-1?");
    };
    expect(typeof cases).toBe("function");
  });
});
