import type { RejectedSpec, ToolSpec } from "toolwright";
import type ts from "typescript";
import { descriptionCheck, effectFlagWarning, nameCheck } from "./checks.js";
import { type DeriveContext, deriveSpec } from "./derive.js";
import { DiagnosticCode, type DiagnosticCodeValue, toolwrightDiagnostic } from "./diagnostics.js";
import { type CompilerOptions, type ReportFn, resolveOptions } from "./options.js";
import { rejectedSpec } from "./rejection.js";
import { sameTool } from "./same-tool.js";
import { SiteReach } from "./site-reach.js";
import { findToolSites, type ToolSite } from "./sites.js";
import { targetChecks } from "./target-check.js";
import { ToolwrightTypes } from "./toolwright-types.js";

/** A tool site with what the emitters write there: its spec, or the marker of a rejected site. */
export interface EmittedSite {
  readonly site: ToolSite;
  readonly spec: ToolSpec | RejectedSpec;
}

/** One tool site with the spec derived for it. */
export interface DerivedSite extends EmittedSite {
  readonly spec: ToolSpec;
}

/** Everything derived from one source file. */
export interface FileResult {
  readonly sites: readonly DerivedSite[];
  /** Sites with build errors, each with the marker that makes creating the tool throw them. */
  readonly rejected: readonly EmittedSite[];
  readonly diagnostics: readonly ts.Diagnostic[];
}

interface ProgramState {
  readonly checker: ts.TypeChecker;
  readonly types: ToolwrightTypes;
  readonly reach: SiteReach;
  readonly files: Map<string, FileResult>;
}

// Emitters call us once per emitted file (ts-patch builds a new transformer factory for
// each emit); the checker and the brand lookup are built once per Program.
const states = new WeakMap<ts.Program, ProgramState>();

function stateOf(program: ts.Program): ProgramState {
  let state = states.get(program);
  if (!state) {
    const checker = program.getTypeChecker();
    const types = new ToolwrightTypes(program, checker);
    state = { checker, types, reach: new SiteReach(program, checker, types), files: new Map() };
    states.set(program, state);
  }
  return state;
}

const EMPTY: FileResult = { sites: [], rejected: [], diagnostics: [] };

/** {@link deriveSpec}, with any failure inside toolwright turned into a diagnostic at the site. */
function deriveSafely(site: ToolSite, context: DeriveContext): ReturnType<typeof deriveSpec> {
  try {
    return deriveSpec(site, context);
  } catch (error) {
    const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    return {
      problems: [
        {
          node: site.node,
          code: DiagnosticCode.internalError,
          message: `toolwright failed while deriving this tool (${reason.slice(0, 200)}). Fix: this is a toolwright bug, please report it with the tool's types; until then pass a hand-written schema with tool({ name, description, parameters, execute }).`,
        },
      ],
    };
  }
}

/**
 * The core of the compiler, independent of ts-patch: finds every tool site in `file`,
 * derives its spec and runs the build-time checks. Results are cached per Program and
 * file, so repeated calls are free. Entry points (the transformer, bundler plugins, a
 * CLI) only decide how to write `sites` into their output.
 *
 * @example
 * ```ts
 * const program = ts.createProgram(["src/tools.ts"], options);
 * const file = program.getSourceFile("src/tools.ts")!;
 * const { sites, diagnostics } = deriveSpecs(program, file, { minDescriptionLength: 20 });
 * const output = spliceSpecs(file.text, sites);
 * ```
 */
export function deriveSpecs(program: ts.Program, file: ts.SourceFile, options: CompilerOptions = {}): FileResult {
  if (file.isDeclarationFile) return EMPTY;
  const state = stateOf(program);
  if (!state.types.present || !state.reach.canHoldSites(file)) return EMPTY;
  const cached = state.files.get(file.fileName);
  if (cached) return cached;

  const resolved = resolveOptions(options);
  const checks = [
    nameCheck,
    descriptionCheck(resolved.minDescriptionLength),
    ...targetChecks(resolved.targets),
    ...resolved.checks,
  ];
  const diagnostics: ts.Diagnostic[] = [];
  const report: ReportFn = (node, code, message) =>
    diagnostics.push(toolwrightDiagnostic(node, code as DiagnosticCodeValue, message));
  const context = { ...state, options: resolved, rootDir: program.getCurrentDirectory() };
  const sites: DerivedSite[] = [];
  const rejected: EmittedSite[] = [];
  const seen = new Map<string, ToolSpec>();

  for (const site of findToolSites(file, state.types, state.checker)) {
    const before = diagnostics.length;
    const { spec, problems } = deriveSafely(site, context);
    for (const problem of problems) report(problem.node, problem.code, problem.message);
    if (!spec) {
      rejected.push({ site, spec: rejectedSpec(diagnostics.slice(before), context.rootDir) });
      continue;
    }
    for (const check of checks) check(spec, site.node, report);
    const first = seen.get(spec.name);
    if (first === undefined) seen.set(spec.name, spec);
    else if (!sameTool(first, spec)) {
      report(
        site.node,
        DiagnosticCode.duplicateName,
        `tool name "${spec.name}" is already used by the tool on line ${first.source.line} of this file; the model could not tell them apart. Fix: pass a different { name: "..." } to one of them.`,
      );
    }
    // A site with errors gets no spec at all: the build fails, and if its output runs
    // anyway, creating the tool throws the build's errors instead of using a partial schema.
    if (diagnostics.length === before) sites.push({ site, spec });
    else rejected.push({ site, spec: rejectedSpec(diagnostics.slice(before), context.rootDir) });
    // Counted after the errors, so a warned site keeps its spec.
    const warning = resolved.requireEffectFlags ? effectFlagWarning(spec, site.node) : undefined;
    if (warning) diagnostics.push(warning);
  }
  const result = { sites, rejected, diagnostics };
  state.files.set(file.fileName, result);
  return result;
}
