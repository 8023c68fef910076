import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { dialectOfTarget, dialects } from "toolwright/dialects";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Diagnostic, DiagnosticSeverity } from "vscode-languageserver-protocol/node";
import { removeTempProject } from "../../packages/compiler/test/temp-project.js";
import {
  FUNCTIONS,
  PLANNER,
  SEARCH_FLIGHTS,
  SUMMARIES,
  SUMMARY_FIXES,
  TOOLS,
  TYPES,
  WEATHER,
} from "../language-service/editor-sources.js";
import { projectWith, TS5, TS7, tsconfig } from "../ts7/project.js";
import { applyEdits, LspClient, positionOf, uriOf } from "./lsp-client.js";

// `toolwright lsp` as an editor runs it: the real CLI over stdio, driven by an LSP client,
// on throwaway TypeScript 7 projects (no TypeScript 5 in them). The fixture project is the
// tsserver plugin's (test/language-service/plugin.test.ts): the answers are the same.

const roots: string[] = [];
const clients: LspClient[] = [];

function project(name: string, typescript: string, plugin: Record<string, unknown>, files: Record<string, string>) {
  const root = projectWith(name, typescript, { "tsconfig.json": tsconfig(plugin) });
  for (const [file, text] of Object.entries(files)) writeFileSync(path.join(root, file), text);
  roots.push(root);
  return root;
}

function client(root: string, args: readonly string[] = []): LspClient {
  const started = new LspClient(root, args);
  clients.push(started);
  return started;
}

afterAll(async () => {
  for (const c of clients) await c.stop();
  for (const root of roots) removeTempProject(root);
});

const ours = (diagnostics: readonly Diagnostic[]) => diagnostics.filter((d) => d.source === "toolwright");
const withCode = (code: number) => (diagnostics: readonly Diagnostic[]) =>
  ours(diagnostics).filter((d) => d.code === code);

/** The JSON blocks of a hover, in order. */
function jsonBlocks(markdown: string): unknown[] {
  return [...markdown.matchAll(/```json\n([\s\S]*?)\n```/g)].map((m) => JSON.parse(m[1] ?? "null"));
}

function markdownOf(hover: Awaited<ReturnType<LspClient["hover"]>>): string {
  const contents = hover?.contents;
  return contents && typeof contents === "object" && "kind" in contents ? contents.value : "";
}

describe("toolwright lsp on a TypeScript 7 project", () => {
  let lsp: LspClient;
  let root: string;
  let tools: string;
  let functions: string;
  let types: string;

  beforeAll(async () => {
    root = project(
      "lsp",
      TS7,
      { targets: ["openai"] },
      {
        "src/types.ts": TYPES,
        "src/functions.ts": FUNCTIONS,
        "src/tools.ts": TOOLS,
      },
    );
    tools = path.join(root, "src", "tools.ts");
    functions = path.join(root, "src", "functions.ts");
    types = path.join(root, "src", "types.ts");
    lsp = client(root);
  });

  it("initializes with hover, quick fixes and incremental sync", async () => {
    const result = await lsp.initialize(root);
    expect(result.serverInfo?.name).toBe("toolwright");
    expect(result.capabilities.hoverProvider).toBe(true);
    expect(result.capabilities.codeActionProvider).toEqual({ codeActionKinds: ["quickfix"] });
    expect(result.capabilities.textDocumentSync).toEqual({ openClose: true, change: 2 });
    // What the editor guide says to look for in the server's log.
    expect(lsp.log.join("")).toContain(`[toolwright] serving ${root} with TypeScript 7.0.`);
    await lsp.open(tools, TOOLS);
    await lsp.open(functions, FUNCTIONS);
    await lsp.open(types, TYPES);
  });

  it("publishes a tool's error in the file that declares the function, at the parameter, with the build's code and message", async () => {
    const [error, ...more] = await lsp.diagnostics(functions, (d) => ours(d).length > 0);
    expect(more).toEqual([]);
    const start = positionOf(FUNCTIONS, "table: Map");
    const end = positionOf(FUNCTIONS, "table: Map<string, number>", "table: Map<string, number>".length);
    expect(error).toMatchObject({ range: { start, end }, code: 990001, severity: DiagnosticSeverity.Error });
    expect(error?.message).toMatch(/^TW990001: tool "countEntries": `table` is `Map<string, number>`/);
    // The tools file gets no error of toolwright's, only the hints for undescribed parameters.
    expect(ours(await lsp.diagnostics(tools)).filter((d) => d.code !== 990100)).toEqual([]);
  });

  it("follows an unsaved edit in an imported type: the error appears in the tool's file, then goes once undone", async () => {
    const start = positionOf(TYPES, "string;");
    const range = { start, end: { ...start, character: start.character + "string".length } };
    await lsp.change(types, range, "bigint");
    const broken = await lsp.diagnostics(tools, (d) => withCode(990001)(d).length > 0);
    const [error] = withCode(990001)(broken);
    expect(error?.range.start).toEqual(positionOf(TOOLS, "slot: Slot"));
    expect(error?.message).toContain("`slot.start` is `bigint`");
    // Nothing was written to disk: the server read the editor's buffer.
    expect(readFileSync(types, "utf8")).toBe(TYPES);
    await lsp.change(types, { start, end: { ...start, character: start.character + "bigint".length } }, "string");
    await lsp.diagnostics(tools, (d) => withCode(990001)(d).length === 0);
  });

  it("shows a tool(...) call's tool on hover: name, description, flags, and parameters in the target's dialect", async () => {
    const at = positionOf(TOOLS, "tool(searchFlights)");
    const hover = await lsp.hover(tools, at);
    const doc = markdownOf(hover);
    expect(doc).toContain("**toolwright tool** `searchFlights`");
    expect(doc).toContain("Search for available flights between two airports.");
    expect(doc).toContain("Flags: `readOnly`");
    expect(hover?.range).toEqual({ start: at, end: { ...at, character: at.character + "tool".length } });
    const dialect = dialectOfTarget("openai") ?? "openai";
    expect(jsonBlocks(doc)).toEqual([dialects[dialect].toDialect(SEARCH_FLIGHTS).schema]);
    expect(doc).toContain(`target \`openai\` receives them (${dialect} dialect)`);
  });

  it("shows the tool on agent.tool(...), a bare function in a tool list and a @tool method, and nothing elsewhere", async () => {
    expect(markdownOf(await lsp.hover(tools, positionOf(TOOLS, "tool(currentTime,")))).toContain(
      "**toolwright tool** `clock`",
    );
    expect(markdownOf(await lsp.hover(tools, positionOf(TOOLS, "currentTime] }")))).toContain(
      "**toolwright tool** `currentTime`",
    );
    expect(markdownOf(await lsp.hover(tools, positionOf(TOOLS, "removeProduct(sku")))).toContain(
      "**toolwright tool** `remove_product`",
    );
    for (const away of ["agent.tool(", "route + maxStops", "tool(countEntries)"]) {
      expect(await lsp.hover(tools, positionOf(TOOLS, away)), away).toBeNull();
    }
  });

  it("hints each parameter the model sees undescribed, and its quick fix writes the @param stub", async () => {
    const hints = withCode(990100)(await lsp.diagnostics(tools));
    expect(hints.map((d) => d.range.start)).toEqual([
      positionOf(TOOLS, "destination: string"),
      positionOf(TOOLS, "maxStops = 1"),
    ]);
    expect(hints.map((d) => d.severity)).toEqual([DiagnosticSeverity.Hint, DiagnosticSeverity.Hint]);
    expect(hints[0]?.message).toBe(
      'TW990100: tool "searchFlights": the model sees "destination" with no description. Fix: add "@param destination <what to pass>" to the function\'s TSDoc.',
    );
    const hint = hints[0] as Diagnostic;
    const actions = await lsp.codeActions(tools, hint.range, [hint]);
    expect(actions.map((a) => [a.title, a.kind])).toEqual([["Add a @param description for 'destination'", "quickfix"]]);
    expect(actions[0]?.diagnostics).toEqual([hint]);
    const edits = actions[0]?.edit?.changes ?? {};
    expect(Object.keys(edits)).toEqual([uriOf(tools)]);
    const fixed = applyEdits(TOOLS, edits[uriOf(tools)] ?? []);
    expect(fixed).toContain(
      " * @param origin IATA code of the departure airport.\n * @readOnly\n * @param destination TODO: say what the model should pass.\n */\nfunction searchFlights(",
    );
    await lsp.replace(tools, fixed);
    const after = await lsp.diagnostics(tools);
    expect(withCode(990100)(after).map((d) => d.range.start)).toEqual([positionOf(fixed, "maxStops = 1")]);
    await lsp.replace(tools, TOOLS);
  });

  it("answers every request while a tool site is typed half-way, and works again once it is whole", async () => {
    let current = TOOLS;
    for (const cut of ["tool(se", "tool(", "tool(searchFlights, { name: ", "tool(searchFlights, 42)"]) {
      current = TOOLS.replace("tool(searchFlights);", cut);
      await lsp.replace(tools, current);
      await lsp.diagnostics(tools);
      await lsp.hover(tools, positionOf(current, "tool("));
      await lsp.codeActions(tools, { start: positionOf(current, "tool("), end: positionOf(current, "tool(", 4) });
    }
    await lsp.replace(tools, TOOLS);
    await lsp.diagnostics(tools, (d) => withCode(990100)(d).length === 2);
    expect(markdownOf(await lsp.hover(tools, positionOf(TOOLS, "tool(searchFlights)")))).toContain("`searchFlights`");
    expect(lsp.log.join("")).not.toContain("failed");
  });

  it("ends on shutdown and exit with code 0", async () => {
    expect(await lsp.stop()).toBe(0);
  });
});

describe("toolwright lsp and files changed outside the editor", () => {
  it("follows a change on disk to a file it was told about, and a closed buffer falls back to the disk", async () => {
    const root = project(
      "lsp-disk",
      TS7,
      {},
      { "src/types.ts": TYPES, "src/functions.ts": FUNCTIONS, "src/tools.ts": TOOLS },
    );
    const [tools, types] = [path.join(root, "src", "tools.ts"), path.join(root, "src", "types.ts")];
    const lsp = client(root);
    await lsp.initialize(root);
    await lsp.open(tools, TOOLS);
    await lsp.diagnostics(tools, (d) => withCode(990100)(d).length === 2);
    // A checkout or a generator rewrites a file the editor has not opened.
    writeFileSync(types, TYPES.replace("start: string;", "start: bigint;"));
    await lsp.filesChanged([{ fileName: types, type: 2 }]);
    const broken = await lsp.diagnostics(tools, (d) => withCode(990001)(d).length > 0);
    expect(withCode(990001)(broken)[0]?.message).toContain("`slot.start` is `bigint`");
    expect(lsp.registrations).toEqual(["workspace/didChangeWatchedFiles"]);
    // Opened, fixed in the buffer but not saved: the buffer wins; closed: the disk again.
    await lsp.open(types, readFileSync(types, "utf8"));
    await lsp.replace(types, TYPES);
    await lsp.diagnostics(tools, (d) => withCode(990001)(d).length === 0);
    await lsp.close(types);
    await lsp.diagnostics(tools, (d) => withCode(990001)(d).length > 0);
    // A new file on disk that a tool file imports.
    const extra = path.join(root, "src", "extra.ts");
    writeFileSync(extra, "/** A note. */\nexport interface Note {\n  /** Its text. */\n  text: string;\n}\n");
    await lsp.filesChanged([{ fileName: extra, type: 1 }]);
    const withNote = `${TOOLS}\nimport type { Note } from "./extra.js";\n/**\n * Keep a note.\n * @param note The note.\n */\nfunction keep(note: Note): string {\n  return note.text;\n}\nexport const notes = tool(keep);\n`;
    await lsp.replace(tools, withNote);
    const hover = await lsp.hover(tools, positionOf(withNote, "tool(keep)"));
    expect(markdownOf(hover)).toContain("**toolwright tool** `keep`");
    expect(jsonBlocks(markdownOf(hover))[0]).toMatchObject({
      properties: { note: { properties: { text: { type: "string", description: "Its text." } } } },
    });
  });
});

describe("toolwright lsp's annotation quick fix", () => {
  it("writes the inferred type where requireAnnotations asks for one, and the error goes", async () => {
    const root = project("lsp-annotate", TS7, { requireAnnotations: true }, { "src/weather.ts": WEATHER });
    const file = path.join(root, "src", "weather.ts");
    const lsp = client(root);
    // A client that cannot watch files is not asked to.
    await lsp.initialize(root, undefined, false);
    await lsp.open(file, WEATHER);
    const errors = await lsp.diagnostics(file, (d) => withCode(990002)(d).length > 0);
    const [error] = withCode(990002)(errors);
    expect(error?.range.start).toEqual(positionOf(WEATHER, "days = 3"));
    const actions = await lsp.codeActions(file, (error as Diagnostic).range, [error as Diagnostic]);
    expect(actions.map((a) => a.title)).toEqual(["Annotate 'days' with its inferred type 'number'"]);
    const fixed = applyEdits(WEATHER, actions[0]?.edit?.changes?.[uriOf(file)] ?? []);
    expect(fixed).toContain("function forecast(city: string, days: number = 3): string {");
    await lsp.replace(file, fixed);
    await lsp.diagnostics(file, (d) => ours(d).length === 0);
    expect(lsp.registrations).toEqual([]);
  });
});

describe("toolwright lsp's hover on an inline function's name and summary quick fix", () => {
  it("shows the tool on the name of a function expression written in tool(...)", async () => {
    const root = project("lsp-inline-name", TS7, {}, { "src/planner.ts": PLANNER });
    const file = path.join(root, "src", "planner.ts");
    const lsp = client(root);
    await lsp.initialize(root);
    await lsp.open(file, PLANNER);
    const at = positionOf(PLANNER, "plan_visits(city");
    const hover = await lsp.hover(file, at);
    expect(markdownOf(hover)).toContain("**toolwright tool** `plan_visits`");
    expect(hover?.range).toEqual({ start: at, end: { ...at, character: at.character + "plan_visits".length } });
    expect(await lsp.hover(file, positionOf(PLANNER, "city.repeat"))).toBeNull();
  });

  it("writes a summary stub where the build reads the description, and the error goes", async () => {
    const root = project("lsp-summary", TS7, {}, { "src/summaries.ts": SUMMARIES });
    const file = path.join(root, "src", "summaries.ts");
    const lsp = client(root);
    await lsp.initialize(root);
    await lsp.open(file, SUMMARIES);
    const errors = withCode(990005)(await lsp.diagnostics(file, (d) => withCode(990005)(d).length > 0));
    expect(errors.map((d) => d.range.start)).toEqual(SUMMARY_FIXES.map(({ at }) => positionOf(SUMMARIES, at)));
    for (const [i, error] of errors.entries()) {
      const expected = SUMMARY_FIXES[i]?.fixed;
      const actions = await lsp.codeActions(file, error.range, [error]);
      if (expected === undefined) {
        expect(actions).toEqual([]);
        continue;
      }
      expect(actions.map((a) => a.title)).toHaveLength(1);
      expect(actions[0]?.title).toMatch(/^Add a TSDoc summary for tool '/);
      const fixed = applyEdits(SUMMARIES, actions[0]?.edit?.changes?.[uriOf(file)] ?? []);
      expect(fixed).toContain(expected);
      await lsp.replace(file, fixed);
      await lsp.diagnostics(file, (d) => withCode(990005)(d).length === errors.length - 1);
      await lsp.replace(file, SUMMARIES);
      await lsp.diagnostics(file, (d) => withCode(990005)(d).length === errors.length);
    }
  });
});

describe("toolwright lsp on a project that is not on TypeScript 7", () => {
  it("refuses to initialize, naming the TypeScript found and the tsserver plugin to use instead", async () => {
    const root = project("lsp-ts5", TS5, {}, { "src/tools.ts": 'export const x = "no tools";\n' });
    const lsp = client(root);
    const failure = await lsp.initialize(root).then(
      () => undefined,
      (error: unknown) => error as { message: string; data?: unknown },
    );
    expect(failure?.message).toContain("typescript 5.9.3");
    expect(failure?.message).toContain("@toolwright/compiler/language-service");
    expect(failure?.data).toEqual({ retry: false });
  });
});

describe("toolwright lsp on a solution tsconfig (Vite's layout)", () => {
  it("refuses to initialize, naming the references and the -p to start it with", async () => {
    const root = project("lsp-solution", TS7, {}, { "tsconfig.app.json": tsconfig() });
    writeFileSync(
      path.join(root, "tsconfig.json"),
      JSON.stringify({ files: [], references: [{ path: "./tsconfig.app.json" }] }),
    );
    const lsp = client(root);
    const failure = await lsp.initialize(root).then(
      () => undefined,
      (error: unknown) => error as { message: string; data?: unknown },
    );
    expect(failure?.message).toBe(
      "toolwright lsp: tsconfig.json holds no files of its own, only references to other projects (tsconfig.app.json), and toolwright reads one project. Fix: pass the one that holds your tools, e.g. -p tsconfig.app.json.",
    );
    expect(failure?.data).toEqual({ retry: false });
  });
});
