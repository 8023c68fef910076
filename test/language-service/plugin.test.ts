import { dialectOfTarget, dialects } from "toolwright/dialects";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ServerCodeFix, TsServer } from "../../scripts/bench/lib/tsserver-client.mjs";
import {
  FUNCTIONS,
  PLANNER,
  SEARCH_FLIGHTS,
  SUMMARIES,
  SUMMARY_FIXES,
  TOOLS,
  TYPES,
  WEATHER,
} from "./editor-sources.js";
import { applyChanges, EditorProject, locate, TEST_DIR } from "./project.js";

// One real tsserver for the file; every case opens files of its own fixture project.
const server = new TsServer(TEST_DIR);
const projects: EditorProject[] = [];

afterAll(async () => {
  await server.close();
  for (const project of projects) project.remove();
});

interface QuickInfo {
  readonly displayString: string;
  readonly documentation: string;
}

async function hover(file: string, at: { line: number; offset: number }): Promise<QuickInfo | undefined> {
  const response = await server.request<QuickInfo>("quickinfo", { file, ...at });
  // "No content available." is tsserver's answer for a place with nothing to show, not a failure.
  if (!response.success && response.message === "No content available.") return undefined;
  expect(response.success, response.message).toBe(true);
  return response.body;
}

/** The JSON blocks of a hover, in order. */
function jsonBlocks(markdown: string): unknown[] {
  return [...markdown.matchAll(/```json\n([\s\S]*?)\n```/g)].map((m) => JSON.parse(m[1] ?? "null"));
}

/** Replaces the whole text of an open file, as an editor does after applying an edit. */
function replaceText(file: string, before: string, after: string): void {
  const lines = before.split("\n");
  server.notify("change", {
    file,
    line: 1,
    offset: 1,
    endLine: lines.length,
    endOffset: (lines.at(-1)?.length ?? 0) + 1,
    insertString: after,
  });
}

async function codeFixes(file: string, start: { line: number; offset: number }, end: typeof start, code: number) {
  const response = await server.request<ServerCodeFix[]>("getCodeFixes", {
    file,
    startLine: start.line,
    startOffset: start.offset,
    endLine: end.line,
    endOffset: end.offset,
    errorCodes: [code],
  });
  expect(response.success, response.message).toBe(true);
  return response.body ?? [];
}

describe("the language-service plugin in a real tsserver", () => {
  let project: EditorProject;
  let tools: string;
  let functions: string;
  let types: string;

  beforeAll(() => {
    project = new EditorProject("ls-behaviour", { targets: ["openai"] });
    projects.push(project);
    types = project.write("src/types.ts", TYPES);
    functions = project.write("src/functions.ts", FUNCTIONS);
    tools = project.write("src/tools.ts", TOOLS);
    server.open(tools);
    server.open(functions);
    server.open(types);
  });

  it("reports a tool's error in the file that declares the function, at the parameter, as the build does", async () => {
    const inFunctions = (await server.diagnostics(functions)).filter((d) => d.code === 990001);
    expect(inFunctions).toHaveLength(1);
    expect(inFunctions[0]?.start).toEqual(locate(FUNCTIONS, "table: Map"));
    expect(inFunctions[0]?.text).toMatch(/^TW990001: tool "countEntries": `table` is `Map<string, number>`/);
    const inTools = await server.diagnostics(tools);
    expect(inTools.filter((d) => d.code >= 990000)).toEqual([]);
  });

  it("follows an edit in an imported type: the error appears, then goes once the edit is undone", async () => {
    expect((await server.diagnostics(tools)).some((d) => d.code === 990001)).toBe(false);
    const start = locate(TYPES, "string;");
    server.notify("change", {
      file: types,
      ...start,
      endLine: start.line,
      endOffset: start.offset + "string".length,
      insertString: "bigint",
    });
    const broken = (await server.diagnostics(tools)).filter((d) => d.code === 990001);
    expect(broken.map((d) => d.start)).toEqual([locate(TOOLS, "slot: Slot")]);
    expect(broken[0]?.text).toContain("`slot.start` is `bigint`");
    server.notify("change", {
      file: types,
      ...start,
      endLine: start.line,
      endOffset: start.offset + "bigint".length,
      insertString: "string",
    });
    expect((await server.diagnostics(tools)).some((d) => d.code === 990001)).toBe(false);
  });

  it("shows a tool(...) call's tool on hover: name, description, flags, and parameters in the target's dialect", async () => {
    const info = await hover(tools, locate(TOOLS, "tool(searchFlights)"));
    const doc = info?.documentation ?? "";
    expect(doc).toContain("**toolwright tool** `searchFlights`");
    expect(doc).toContain("Search for available flights between two airports.");
    expect(doc).toContain("Flags: `readOnly`");
    // TypeScript's own hover is kept: the signature of toolwright's tool().
    expect(info?.displayString).toContain("tool");
    const dialect = dialectOfTarget("openai");
    expect(dialect).toBeDefined();
    expect(jsonBlocks(doc)).toEqual([dialects[dialect ?? "openai"].toDialect(SEARCH_FLIGHTS).schema]);
    expect(doc).toContain(`target \`openai\` receives them (${dialect} dialect)`);
  });

  it("shows the tool on agent.tool(...), a bare function in a tool list, and a @tool method", async () => {
    const onAgentTool = (await hover(tools, locate(TOOLS, "tool(currentTime,")))?.documentation ?? "";
    expect(onAgentTool).toContain("**toolwright tool** `clock`");
    expect(onAgentTool).toContain("Flags: `idempotent`");
    const inList = (await hover(tools, locate(TOOLS, "currentTime] }")))?.documentation ?? "";
    expect(inList).toContain("**toolwright tool** `currentTime`");
    expect(inList).toContain("Get the current time in a time zone.");
    for (const place of ["tool({ name", "removeProduct(sku"]) {
      const onMethod = (await hover(tools, locate(TOOLS, place)))?.documentation ?? "";
      expect(onMethod, place).toContain("**toolwright tool** `remove_product`");
      expect(onMethod, place).toContain("Flags: `destructive`");
    }
  });

  it("adds nothing to hovers away from tool sites or on a site with errors", async () => {
    const onAgent = await hover(tools, locate(TOOLS, "agent.tool("));
    expect(onAgent?.documentation ?? "").not.toContain("toolwright tool");
    const inBody = await hover(tools, locate(TOOLS, "route + maxStops"));
    expect(inBody?.documentation ?? "").not.toContain("toolwright tool");
    const onBroken = await hover(tools, locate(TOOLS, "tool(countEntries)"));
    expect(onBroken?.documentation ?? "").not.toContain("toolwright tool");
  });

  it("suggests a @param stub for each parameter the model sees undescribed, and the fix writes it", async () => {
    // Asked per file (through the language service) and for no file at all, as VS Code asks.
    for (const args of [{ file: tools }, undefined]) {
      const supported = await server.request<string[]>("getSupportedCodeFixes", args);
      expect(supported.body).toEqual(expect.arrayContaining(["990002", "990100"]));
      expect(supported.body?.filter((code) => code === "990100")).toHaveLength(1);
    }
    const hints = (await server.suggestions(tools)).filter((d) => d.code === 990100);
    expect(hints.map((d) => d.start)).toEqual([locate(TOOLS, "destination: string"), locate(TOOLS, "maxStops = 1")]);
    const hint = hints[0];
    if (!hint) throw new Error("no hint");
    const fixes = await codeFixes(tools, hint.start, hint.end, 990100);
    expect(fixes.map((f) => f.description)).toEqual(["Add a @param description for 'destination'"]);
    const changes = fixes[0]?.changes ?? [];
    expect(changes.map((c) => c.fileName)).toEqual([tools]);
    const fixed = applyChanges(TOOLS, changes[0]?.textChanges ?? []);
    expect(fixed).toContain(
      " * @param origin IATA code of the departure airport.\n * @readOnly\n * @param destination TODO: say what the model should pass.\n */\nfunction searchFlights(",
    );
    replaceText(tools, TOOLS, fixed);
    const after = (await server.suggestions(tools)).filter((d) => d.code === 990100);
    expect(after.map((d) => d.start)).toEqual([locate(fixed, "maxStops = 1")]);
    replaceText(tools, fixed, TOOLS);
  });

  it("writes the @param stub into a one-line comment, and a new comment where there is none", async () => {
    const source = `import { tool } from "toolwright";

/** Convert an amount of money between two currencies. */
function convert(amount: number): number {
  return amount;
}

export function ping(host: string): string {
  return host;
}

export const money = tool(convert);
export const pinger = tool(ping, { description: "Check that a host answers on the network." });
`;
    const file = project.write("src/fixes.ts", source);
    server.open(file);
    const hints = (await server.suggestions(file)).filter((d) => d.code === 990100);
    expect(hints.map((d) => d.start)).toEqual([locate(source, "amount: number"), locate(source, "host: string")]);
    const edits: string[] = [];
    for (const hint of hints) {
      const [fix] = await codeFixes(file, hint.start, hint.end, 990100);
      edits.push(applyChanges(source, fix?.changes[0]?.textChanges ?? []));
    }
    expect(edits[0]).toContain(
      "/** Convert an amount of money between two currencies.\n * @param amount TODO: say what the model should pass.\n */\nfunction convert(",
    );
    expect(edits[1]).toContain(
      "}\n\n/**\n * @param host TODO: say what the model should pass.\n */\nexport function ping(host: string)",
    );
  });

  it("answers every request while a tool site is typed half-way, and works again once it is whole", async () => {
    const whole = `import { tool } from "toolwright";\n\n/**\n * Look up an order by its id.\n * @param id Order id.\n */\nfunction lookup(id: string): string {\n  return id;\n}\n\nexport const order = tool(lookup);\n`;
    const draft = project.write("src/draft.ts", whole);
    server.open(draft);
    expect((await hover(draft, locate(whole, "tool(lookup")))?.documentation).toContain("**toolwright tool** `lookup`");
    let current = whole;
    for (const cut of ["tool(lo", "tool(", "tool(lookup, { name: ", "tool(lookup, 42)", "tool(lookup, { name: 42 })"]) {
      const next = whole.replace("tool(lookup);", cut);
      replaceText(draft, current, next);
      current = next;
      await server.diagnostics(draft);
      await server.suggestions(draft);
      await hover(draft, locate(next, "tool("));
      await codeFixes(draft, locate(next, "tool("), locate(next, "tool(", 4), 990100);
    }
    replaceText(draft, current, whole);
    expect((await server.diagnostics(draft)).filter((d) => d.code >= 990000)).toEqual([]);
    expect((await hover(draft, locate(whole, "tool(lookup")))?.documentation).toContain("**toolwright tool** `lookup`");
  });
});

describe("an inline function expression's name", () => {
  it("shows its tool on hover, as tool( does, and a parameter inside keeps its own hover", async () => {
    const project = new EditorProject("ls-inline-name");
    projects.push(project);
    const file = project.write("src/planner.ts", PLANNER);
    server.open(file);
    const onName = (await hover(file, locate(PLANNER, "plan_visits(city")))?.documentation ?? "";
    expect(onName).toContain("**toolwright tool** `plan_visits`");
    expect(onName).toContain("Plan the visits of a sales rep in a city, the busiest districts first.");
    const onCall = (await hover(file, locate(PLANNER, "tool(function")))?.documentation ?? "";
    expect(jsonBlocks(onName)).toEqual(jsonBlocks(onCall));
    const onParameter = await hover(file, locate(PLANNER, "city.repeat"));
    expect(onParameter?.displayString).toContain("city: string");
    expect(onParameter?.documentation ?? "").not.toContain("toolwright tool");
  });
});

describe("the summary quick fix for a tool with no description (TW990005)", () => {
  it("writes a summary stub where the build reads the description, and the error goes", async () => {
    const project = new EditorProject("ls-summary");
    projects.push(project);
    const file = project.write("src/summaries.ts", SUMMARIES);
    server.open(file);
    for (const args of [{ file }, undefined]) {
      const supported = await server.request<string[]>("getSupportedCodeFixes", args);
      expect(supported.body).toEqual(expect.arrayContaining(["990005"]));
    }
    const errors = (await server.diagnostics(file)).filter((d) => d.code === 990005);
    expect(errors.map((d) => d.start)).toEqual(SUMMARY_FIXES.map(({ at }) => locate(SUMMARIES, at)));
    for (const [i, error] of errors.entries()) {
      const expected = SUMMARY_FIXES[i]?.fixed;
      const fixes = await codeFixes(file, error.start, error.end, 990005);
      if (expected === undefined) {
        expect(fixes).toEqual([]);
        continue;
      }
      expect(fixes.map((f) => f.description)).toHaveLength(1);
      expect(fixes[0]?.description).toMatch(/^Add a TSDoc summary for tool '/);
      const fixed = applyChanges(SUMMARIES, fixes[0]?.changes[0]?.textChanges ?? []);
      expect(fixed).toContain(expected);
      replaceText(file, SUMMARIES, fixed);
      const left = (await server.diagnostics(file)).filter((d) => d.code === 990005);
      expect(left, expected).toHaveLength(errors.length - 1);
      replaceText(file, fixed, SUMMARIES);
    }
  });
});

describe("the annotation quick fix", () => {
  it("writes the inferred type where requireAnnotations asks for one, and the error goes", async () => {
    const project = new EditorProject("ls-annotate", { requireAnnotations: true });
    projects.push(project);
    const file = project.write("src/weather.ts", WEATHER);
    server.open(file);
    const errors = (await server.diagnostics(file)).filter((d) => d.code === 990002);
    expect(errors.map((d) => d.start)).toEqual([locate(WEATHER, "days = 3")]);
    const error = errors[0];
    if (!error) throw new Error("no TW990002");
    const fixes = await codeFixes(file, error.start, error.end, 990002);
    expect(fixes.map((f) => f.description)).toEqual(["Annotate 'days' with its inferred type 'number'"]);
    const fixed = applyChanges(WEATHER, fixes[0]?.changes[0]?.textChanges ?? []);
    expect(fixed).toContain("function forecast(city: string, days: number = 3): string {");
    replaceText(file, WEATHER, fixed);
    expect((await server.diagnostics(file)).filter((d) => d.code >= 990000)).toEqual([]);
  });
});
