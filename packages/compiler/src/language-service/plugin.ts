import type ts from "typescript";
import { toTsDiagnostic } from "../backend/ts5/ts5-diagnostics.js";
import { derivationOf } from "../derive-specs.js";
import { FIXABLE_CODES } from "../editor/quick-fixes.js";
import { siteAt } from "../editor/site-at.js";
import { toolMarkdown } from "../editor/tool-markdown.js";
import type { CompilerOptions } from "../options.js";
import { resolveOptions } from "../options.js";
import { useTypeScript } from "../typescript-host.js";
import { advertiseFixes } from "./advertise-fixes.js";
import { toolwrightCodeFixes } from "./code-fixes.js";
import { Derivations } from "./derivations.js";
import { withTool } from "./tool-hover.js";

/** The options of the plugin's own entry: the transformer's options, which win over the build's in the editor. */
function editorOptions(config: unknown): CompilerOptions {
  if (typeof config !== "object" || config === null) return {};
  const { name: _name, ...rest } = config as Record<string, unknown>;
  return rest as CompilerOptions;
}

/**
 * Wraps one project's language service: toolwright's diagnostics join TypeScript's,
 * hovering a tool site shows the tool, and two quick fixes are offered. Whatever fails
 * inside is logged to the tsserver log and leaves TypeScript's own answer untouched.
 */
function decorate(info: ts.server.PluginCreateInfo): ts.LanguageService {
  const ls = info.languageService;
  const log = (message: string): void => info.project.projectService.logger.info(`[toolwright] ${message}`);
  const derivations = new Derivations(
    (fileName) => info.languageServiceHost.getScriptVersion(fileName),
    editorOptions(info.config),
  );
  const guarded = <T>(what: string, fallback: T, run: (program: ts.Program) => T): T => {
    try {
      const program = ls.getProgram();
      return program ? run(program) : fallback;
    } catch (error) {
      // A file typed half-way can trip anything; the editor must never see it as an error response.
      log(`${what} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      return fallback;
    }
  };
  log("enabled");

  return {
    ...ls,
    getSemanticDiagnostics(fileName) {
      const own = ls.getSemanticDiagnostics(fileName);
      const ours = guarded("diagnostics", [], (program) =>
        derivations
          .locatedIn(
            program,
            fileName,
            (d) => d.derived.findings,
            (f) => f,
          )
          .map(toTsDiagnostic),
      );
      return ours.length > 0 ? [...own, ...ours] : own;
    },
    getSuggestionDiagnostics(fileName) {
      const own = ls.getSuggestionDiagnostics(fileName);
      const ours = guarded("suggestions", [], (program) =>
        derivations
          .locatedIn(
            program,
            fileName,
            (d) => d.hints,
            (h) => h.finding,
          )
          .map((h) => toTsDiagnostic(h.finding) as ts.DiagnosticWithLocation),
      );
      return ours.length > 0 ? [...own, ...ours] : own;
    },
    getQuickInfoAtPosition(fileName, position, ...rest) {
      const own = ls.getQuickInfoAtPosition(fileName, position, ...rest);
      return guarded("quick info", own, (program) => {
        const { syntax } = derivationOf(program).backend;
        const found = siteAt(derivations.of(program, fileName)?.derived.sites ?? [], position, syntax);
        if (!found) return own;
        const { targets } = resolveOptions(derivations.optionsFor(program));
        return withTool(own, found.anchor, toolMarkdown(found.derived.spec, targets));
      });
    },
    getCodeFixesAtPosition(fileName, start, end, errorCodes, formatOptions, preferences) {
      const own = ls.getCodeFixesAtPosition(fileName, start, end, errorCodes, formatOptions, preferences);
      const ours = guarded("quick fixes", [], (program) =>
        toolwrightCodeFixes(program, derivations, fileName, start, end, errorCodes),
      );
      return ours.length > 0 ? [...own, ...ours] : own;
    },
    getSupportedCodeFixes(fileName) {
      return [...new Set([...ls.getSupportedCodeFixes(fileName), ...FIXABLE_CODES.map(String)])];
    },
  };
}

/**
 * The tsserver plugin (`{ "name": "@toolwright/compiler/language-service" }` in
 * `compilerOptions.plugins`): toolwright's diagnostics, tool hovers and quick fixes in
 * any editor that runs tsserver. It derives with the compiler's own code on the editor's
 * Program, so it reports what the build reports, where the build reports it.
 *
 * @example
 * ```json
 * { "compilerOptions": { "plugins": [
 *   { "transform": "@toolwright/compiler/transform", "targets": ["openai"] },
 *   { "name": "@toolwright/compiler/language-service" }
 * ] } }
 * ```
 */
export function init(modules: { typescript: typeof ts }): ts.server.PluginModule {
  // The TypeScript instance running tsserver; never load a second copy into the editor.
  useTypeScript(modules.typescript);
  advertiseFixes(modules.typescript, FIXABLE_CODES);
  return { create: decorate };
}
