import type { RejectedSpec, SchemaSpec, ToolSpec } from "toolwright";
import type { Backend, TsSignature } from "./backend/backend.js";
import type { FunctionLike, Node, SourceFile } from "./backend/syntax.js";
import { CallOverloads } from "./call-overloads.js";
import { descriptionCheck, effectFlagWarning, nameCheck } from "./checks.js";
import { type DeriveContext, deriveSpec, signatureOf } from "./derive.js";
import type { Problem } from "./derive-parameters.js";
import { deriveSchema } from "./derive-schema.js";
import { DiagnosticCode, type Finding, finding } from "./diagnostics.js";
import { compilerModuleFacts, type ModuleFacts } from "./module-facts.js";
import { type CompilerOptions, type ReportFn, resolveOptions } from "./options.js";
import { rejectedSpec } from "./rejection.js";
import { sameTool } from "./same-tool.js";
import { SiteReach } from "./site-reach.js";
import {
  calleeNames,
  candidateExpressions,
  type FileSites,
  findSites,
  isToolSite,
  type SchemaSite,
  type SiteCandidates,
  siteCandidates,
  type ToolSite,
  typeArgument,
} from "./sites.js";
import { targetChecks } from "./target-check.js";
import { ToolwrightTypes } from "./toolwright-types.js";

/** A site with what the emitters write there: its spec, or the marker of a rejected site. */
export interface EmittedSite {
  readonly site: ToolSite | SchemaSite;
  readonly spec: ToolSpec | SchemaSpec | RejectedSpec;
}

/** One tool site with the spec derived for it. */
export interface DerivedSite extends EmittedSite {
  readonly site: ToolSite;
  readonly spec: ToolSpec;
}

/** One `schema<T>()` call with the spec derived for it from `T`. */
export interface DerivedSchema extends EmittedSite {
  readonly site: SchemaSite;
  readonly spec: SchemaSpec;
}

/** Everything derived from one source file, with toolwright's diagnostics as {@link Finding}s. */
export interface DerivedFile {
  readonly sites: readonly DerivedSite[];
  readonly schemas: readonly DerivedSchema[];
  /** Sites with build errors, each with the marker that makes creating the tool throw them. */
  readonly rejected: readonly EmittedSite[];
  readonly findings: readonly Finding[];
}

const EMPTY: DerivedFile = { sites: [], schemas: [], rejected: [], findings: [] };

/** A derivation step, with any failure inside toolwright turned into a diagnostic at the site. */
function deriveSafely<Site extends ToolSite | SchemaSite, Spec>(
  site: Site,
  derive: (site: Site) => { spec?: Spec; problems: Problem[] },
): { spec?: Spec; problems: Problem[] } {
  try {
    return derive(site);
  } catch (error) {
    const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    return {
      problems: [
        {
          node: site.node,
          code: DiagnosticCode.internalError,
          message: isToolSite(site)
            ? `toolwright failed while deriving this tool (${reason.slice(0, 200)}). Fix: this is a toolwright bug, please report it with the tool's types; until then pass a hand-written schema with tool({ name, description, parameters, execute }).`
            : `toolwright failed while deriving this schema (${reason.slice(0, 200)}). Fix: this is a toolwright bug, please report it with the type; until then use a simpler type here.`,
        },
      ],
    };
  }
}

/**
 * A site's problems by file, position, then message: the order esbuild lists its messages
 * in, so every build path reports several problems at one node alike.
 */
function byPlace(problems: readonly Problem[]): Problem[] {
  const key = (p: Problem) => [p.node.getSourceFile().fileName, p.node.getStart()] as const;
  return [...problems].sort((a, b) => {
    const [fileA, startA] = key(a);
    const [fileB, startB] = key(b);
    if (fileA !== fileB) return fileA < fileB ? -1 : 1;
    if (startA !== startB) return startA - startB;
    const [textA, textB] = [`TW${a.code}: ${a.message}`, `TW${b.code}: ${b.message}`];
    return textA < textB ? -1 : textA > textB ? 1 : 0;
  });
}

/**
 * The derivation of one program, whichever compiler holds it: finds every tool site,
 * derives its spec and runs the build-time checks, asking the compiler only through its
 * {@link Backend}. Files are derived once per program; entry points (the transformer, the
 * bundler plugins, the CLI) only decide how to write the sites into their output.
 */
export class Derivation {
  readonly types: ToolwrightTypes;
  readonly overloads: CallOverloads;
  private reach: SiteReach | undefined;
  private readonly files = new Map<string, DerivedFile>();

  /**
   * @param modules where the program's module references lead and which files declare
   * globals (default: the compiler's answers), read once, on the first file asked about.
   */
  constructor(
    readonly backend: Backend,
    private readonly modules: ModuleFacts = compilerModuleFacts(backend),
  ) {
    this.types = new ToolwrightTypes(backend);
    this.overloads = new CallOverloads(backend);
  }

  /** True when a file may hold tool sites (it reaches toolwright); the rest need no walk. */
  mayHoldSites(file: SourceFile): boolean {
    return !file.isDeclarationFile && this.mayUseToolwright(file.fileName);
  }

  /** True when a file's declarations may name toolwright's types (see {@link SiteReach}). */
  mayUseToolwright(fileName: string): boolean {
    if (!this.types.present) return false;
    this.reach ??= new SiteReach(this.backend, this.types, this.modules);
    return this.reach.reaches(fileName);
  }

  /** {@link deriveFiles} for one file. */
  deriveFile(file: SourceFile, options: CompilerOptions = {}): DerivedFile {
    return this.deriveFiles([file], options).get(file.fileName) ?? EMPTY;
  }

  /**
   * Derives several files: their sites are found first, then the types those sites read
   * are announced to the backend at once ({@link Backend.prefetch}), then each spec is
   * derived. Results are kept per file for the life of the program.
   */
  deriveFiles(files: readonly SourceFile[], options: CompilerOptions = {}): ReadonlyMap<string, DerivedFile> {
    const out = new Map<string, DerivedFile>();
    const walked: SourceFile[] = [];
    for (const file of files) {
      const cached = this.files.get(file.fileName);
      if (cached) out.set(file.fileName, cached);
      else if (!this.mayHoldSites(file)) out.set(file.fileName, EMPTY);
      else walked.push(file);
    }
    // Walked once, when a backend over IPC asks for them (the in-process one prefetches nothing).
    let candidates: SiteCandidates[] | undefined;
    const found = () => (candidates ??= walked.map((file) => siteCandidates(file, this)));
    this.backend.prefetchLocations(() => ({ types: [], symbols: found().flatMap((c) => calleeNames(c, this)) }));
    this.backend.prefetchLocations(() => {
      const expressions = found().flatMap((c) => candidateExpressions(c, this));
      // A name's symbol says whether it names one function declaration (see functionDeclarationOf).
      return { types: expressions, symbols: expressions.filter((e) => this.backend.syntax.isIdentifier(e)) };
    });
    const pending = walked.map((file) => ({ file, sites: findSites(file, this) }));
    this.backend.prefetchLocations(() => ({
      types: [],
      symbols: pending.flatMap(({ sites }) => sites.tools.flatMap((site) => this.signatureNames(site))),
    }));
    this.backend.prefetch(() => {
      const signatures = pending.flatMap(({ sites }) => sites.tools.flatMap((site) => this.soleSignature(site) ?? []));
      return [
        // The parameters of every site in one question.
        ...this.backend.typesOfSymbols(signatures.flatMap((s) => this.backend.signatureParameters(s))),
        ...signatures.map((s) => this.backend.returnTypeOfSignature(s)),
        ...pending.flatMap(({ sites }) => sites.schemas.flatMap((site) => typeArgument(site, this.backend) ?? [])),
      ];
    });
    const resolved = resolveOptions(options);
    for (const { file, sites } of pending) {
      const result = this.derive(sites, resolved);
      this.files.set(file.fileName, result);
      out.set(file.fileName, result);
    }
    return out;
  }

  /**
   * The names the derivation asks the symbols of at a site: its function's parameters
   * (`city`), and the type names its parameters and return type are written with
   * (`City`, for their aliases and TSDoc).
   */
  private signatureNames(site: ToolSite): Node[] {
    const S = this.backend.syntax;
    const signature = this.soleSignature(site);
    const declaration = (signature && this.backend.signatureDeclaration(signature)) as
      | (FunctionLike & { readonly type?: Node })
      | undefined;
    if (!declaration?.parameters) return [];
    const written = [...declaration.parameters.map((p) => p.type), declaration.type];
    return [
      ...declaration.parameters.flatMap((p) => (S.isIdentifier(p.name) ? [p.name] : [])),
      ...written.flatMap((t) => (t && S.isTypeReferenceNode(t) ? [t.typeName] : [])),
    ];
  }

  /** The signature a site's spec is made of (its function's parameters and return type), if it has one. */
  private soleSignature(site: ToolSite): TsSignature | undefined {
    const found = signatureOf(site, this.backend);
    const signatures = Array.isArray(found) ? found : [found];
    return signatures.length === 1 ? signatures[0] : undefined;
  }

  private derive(found: FileSites, options: ReturnType<typeof resolveOptions>): DerivedFile {
    const checks = [
      nameCheck,
      descriptionCheck(options.minDescriptionLength),
      ...targetChecks(options.targets),
      ...options.checks,
    ];
    const findings: Finding[] = [];
    const report: ReportFn = (node: Node, code, message) => findings.push(finding(node, code, message));
    const context: DeriveContext = {
      backend: this.backend,
      types: this.types,
      options,
      rootDir: this.backend.currentDirectory(),
    };
    const sites: DerivedSite[] = [];
    const rejected: EmittedSite[] = [];
    const seen = new Map<string, ToolSpec>();
    for (const site of found.tools) {
      const before = findings.length;
      const { spec, problems } = deriveSafely(site, (s) => deriveSpec(s, context));
      for (const problem of byPlace(problems)) report(problem.node, problem.code, problem.message);
      if (!spec) {
        rejected.push({ site, spec: rejectedSpec(findings.slice(before), context.rootDir) });
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
      if (findings.length === before) sites.push({ site, spec });
      else rejected.push({ site, spec: rejectedSpec(findings.slice(before), context.rootDir) });
      // Counted after the errors, so a warned site keeps its spec.
      const warning = options.requireEffectFlags ? effectFlagWarning(spec, site.node) : undefined;
      if (warning) findings.push(warning);
    }
    const schemas: DerivedSchema[] = [];
    for (const site of found.schemas) {
      const before = findings.length;
      const { spec, problems } = deriveSafely(site, (s) => deriveSchema(s, context));
      for (const problem of byPlace(problems)) report(problem.node, problem.code, problem.message);
      // As at a tool site: a call with errors gets the marker, and `schema()` throws them.
      if (spec && findings.length === before) schemas.push({ site, spec });
      else rejected.push({ site, spec: rejectedSpec(findings.slice(before), context.rootDir) });
    }
    return { sites, schemas, rejected, findings };
  }
}
