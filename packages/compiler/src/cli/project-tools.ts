import { relative } from "node:path";
import type { SourceFile } from "../backend/syntax.js";
import type { Derivation, DerivedFile } from "../derivation.js";
import type { Finding } from "../diagnostics.js";
import type { CompilerOptions } from "../options.js";
import { countOf, type Progress } from "./progress.js";
import type { ProjectTool } from "./project.js";
import { runtimeKey } from "./runtime-key.js";

/** The tools of one derived file, as the CLI commands use them. */
export function toolsOf(file: SourceFile, result: DerivedFile, derivation: Derivation, root: string): ProjectTool[] {
  return result.sites.map(({ site, spec }) => {
    const start = site.node.getStart(file);
    const { line, character } = file.getLineAndCharacterOfPosition(start);
    return {
      spec,
      key: runtimeKey(site, derivation.backend),
      file: relative(root, file.fileName).split("\\").join("/"),
      line: line + 1,
      column: character + 1,
      at: { file, start, length: Math.max(site.node.getEnd() - start, 1) },
    };
  });
}

/** Files are derived in about this many batches, so the progress line moves. */
const PROGRESS_STEPS = 10;

/**
 * Derives the tool sites of a project's own files, whichever compiler holds them: every
 * tool with its spec and run-time key, and toolwright's findings, in file order.
 */
export function projectTools(
  derivation: Derivation,
  files: readonly SourceFile[],
  options: CompilerOptions,
  root: string,
  progress?: Progress,
): { tools: ProjectTool[]; findings: Finding[] } {
  const tools: ProjectTool[] = [];
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
      tools.push(...toolsOf(file, result, derivation, root));
    }
  }
  return { tools, findings };
}
