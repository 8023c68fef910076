import { writeFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { afterAll, describe, expect, it } from "vitest";
import { init } from "../../src/language-service/plugin.js";
import { removeTempProject, tempProject } from "../temp-project.js";

// The plugin's promise to tsserver: whatever fails inside it is logged, and the editor
// gets TypeScript's own answer, never an error response. Driven in-process on a real
// TypeScript language service whose Program lookup is made to fail.

const root = tempProject("ls-guard");
afterAll(() => removeTempProject(root));

const SOURCE = `import { tool } from "toolwright";

/**
 * Count the entries of a lookup table.
 * @param table The table to count.
 */
function countEntries(table: Map<string, number>): number {
  return table.size;
}

export const counter = tool(countEntries);
const wrong: number = "text";
`;
const file = path.join(root, "src", "tools.ts");
writeFileSync(file, SOURCE);

const host: ts.LanguageServiceHost = {
  getCompilationSettings: () => ({
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    skipLibCheck: true,
    types: [],
  }),
  getScriptFileNames: () => [file],
  getScriptVersion: () => "1",
  getScriptSnapshot: (name) => {
    const text = ts.sys.readFile(name);
    return text === undefined ? undefined : ts.ScriptSnapshot.fromString(text);
  },
  getCurrentDirectory: () => root,
  getDefaultLibFileName: (options) => ts.getDefaultLibFilePath(options),
  fileExists: ts.sys.fileExists,
  readFile: ts.sys.readFile,
  realpath: ts.sys.realpath,
  directoryExists: ts.sys.directoryExists,
  getDirectories: ts.sys.getDirectories,
};
const real = ts.createLanguageService(host);

function decorated(languageService: ts.LanguageService, logs: string[]): ts.LanguageService {
  const info = {
    languageService,
    languageServiceHost: host,
    project: { projectService: { logger: { info: (message: string) => logs.push(message) } } },
    config: { name: "@toolwright/compiler/language-service" },
  } as unknown as ts.server.PluginCreateInfo;
  return init({ typescript: ts }).create(info);
}

const codes = (diagnostics: readonly ts.Diagnostic[]) => diagnostics.map((d) => d.code).sort();
const at = SOURCE.indexOf("tool(countEntries)");

describe("the plugin never fails a tsserver request", () => {
  it("adds toolwright's errors to TypeScript's on a working language service", () => {
    const service = decorated(real, []);
    expect(codes(service.getSemanticDiagnostics(file))).toEqual([2322, 990001]);
  });

  it("answers with TypeScript's own results, and logs why, when its own work throws", () => {
    const logs: string[] = [];
    const broken: ts.LanguageService = {
      ...real,
      getProgram: () => {
        throw new Error("boom");
      },
    };
    const service = decorated(broken, logs);
    expect(codes(service.getSemanticDiagnostics(file))).toEqual([2322]);
    expect(service.getSuggestionDiagnostics(file)).toEqual(real.getSuggestionDiagnostics(file));
    expect(service.getQuickInfoAtPosition(file, at)).toEqual(real.getQuickInfoAtPosition(file, at));
    const fix = [file, at, at + 4, [990100], {}, {}] as const;
    expect(service.getCodeFixesAtPosition(...fix)).toEqual(real.getCodeFixesAtPosition(...fix));
    expect(logs.filter((l) => l.includes("failed: Error: boom")).map((l) => l.split(" failed")[0])).toEqual([
      "[toolwright] diagnostics",
      "[toolwright] suggestions",
      "[toolwright] quick info",
      "[toolwright] quick fixes",
    ]);
  });
});
