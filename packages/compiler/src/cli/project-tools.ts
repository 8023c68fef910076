import type { Node, SourceFile } from "../backend/syntax.js";
import type { Derivation, DerivedFile } from "../derivation.js";
import type { Finding } from "../diagnostics.js";
import type { CompilerOptions } from "../options.js";
import { projectPath } from "../project-path.js";
import { countOf, type Progress } from "./progress.js";
import type { ProjectSchema, ProjectTool } from "./project.js";
import { runtimeKey, runtimeKeyReferences, schemaKey } from "./runtime-key.js";

/** Where a site is, as the CLI reports it. */
function placeOf(node: Node, file: SourceFile, root: string): Pick<ProjectTool, "file" | "line" | "column" | "at"> {
  const start = node.getStart(file);
  const { line, character } = file.getLineAndCharacterOfPosition(start);
  return {
    file: projectPath(root, file.fileName),
    line: line + 1,
    column: character + 1,
    at: { file, start, length: Math.max(node.getEnd() - start, 1) },
  };
}

/** The tools and `schema<T>()` calls of one derived file, as the CLI commands use them. */
export function sitesOf(
  file: SourceFile,
  result: DerivedFile,
  derivation: Derivation,
  root: string,
): { tools: ProjectTool[]; schemas: ProjectSchema[] } {
  const { backend } = derivation;
  backend.prefetchLocations(() => ({
    types: [],
    symbols: runtimeKeyReferences(
      result.sites.map(({ site }) => site),
      backend,
    ),
  }));
  return {
    tools: result.sites.map(({ site, spec }) => ({
      spec,
      key: runtimeKey(site, backend),
      ...placeOf(site.node, file, root),
    })),
    schemas: result.schemas.map(({ site, spec }) => ({
      spec,
      key: schemaKey(site, backend),
      ...placeOf(site.node, file, root),
    })),
  };
}

/** Files are derived in about this many batches, so the progress line moves. */
const PROGRESS_STEPS = 10;

/**
 * Derives the sites of a project's own files, whichever compiler holds them: every tool and
 * `schema<T>()` call with its spec and run-time key, and toolwright's findings, in file order.
 */
export function projectTools(
  derivation: Derivation,
  files: readonly SourceFile[],
  options: CompilerOptions,
  root: string,
  progress?: Progress,
): { tools: ProjectTool[]; schemas: ProjectSchema[]; findings: Finding[] } {
  const tools: ProjectTool[] = [];
  const schemas: ProjectSchema[] = [];
  const findings: Finding[] = [];
  const step = Math.max(1, Math.ceil(files.length / PROGRESS_STEPS));
  for (let from = 0; from < files.length; from += step) {
    const batch = files.slice(from, from + step);
    progress?.update(`deriving specs, ${countOf(from + batch.length, files.length, "files")}`);
    const derived = derivation.deriveFiles(batch, options);
    for (const file of batch) {
      const result = derived.get(file.fileName);
      if (!result) continue;
      findings.push(...result.findings);
      const own = sitesOf(file, result, derivation, root);
      tools.push(...own.tools);
      schemas.push(...own.schemas);
    }
  }
  return { tools, schemas, findings };
}
