/** TypeScript's own declaration extensions, compared as TypeScript does (case-sensitively). */
const DECLARATION = /\.d\.(ts|mts|cts)$/;
/** `.d.<ext>.ts`, the declaration of a file of any extension (`styles.d.css.ts`). */
const ARBITRARY = /\.d\.[^/\\]*\.ts$/;

/**
 * True when TypeScript parses `fileName` as a declaration file: TypeScript decides it from
 * the name alone (`.d.ts`, `.d.mts`, `.d.cts`, or `.d.` in the base name of a `.ts` file),
 * so the question needs no parsed file.
 */
export function isDeclarationFileName(fileName: string): boolean {
  return DECLARATION.test(fileName) || ARBITRARY.test(fileName);
}
