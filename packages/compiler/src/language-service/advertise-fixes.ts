import type ts from "typescript";

/** The part of TypeScript's internal code-fix registry used here (not in its public typings). */
interface CodeFixRegistry {
  registerCodeFix?(registration: { errorCodes: readonly number[]; getCodeActions(): undefined }): void;
}

let advertised = false;

/**
 * Adds `codes` to the list tsserver answers for `getSupportedCodeFixes` without a file,
 * which is how VS Code asks (microsoft/vscode#219273): a client requests quick fixes only
 * for codes on that list. The per-file request goes through the language service, which
 * the plugin decorates; this one reads TypeScript's global registry, so the codes are
 * registered there with no actions of their own (the plugin's decorator supplies them).
 * Once per process; nothing happens if a TypeScript version lacks the registry.
 */
export function advertiseFixes(typescript: typeof ts, codes: readonly number[]): void {
  if (advertised) return;
  advertised = true;
  const registry = (typescript as unknown as { codefix?: CodeFixRegistry }).codefix;
  registry?.registerCodeFix?.({ errorCodes: codes, getCodeActions: () => undefined });
}
