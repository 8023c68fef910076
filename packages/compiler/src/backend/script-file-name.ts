/** JavaScript's extensions, which TypeScript reads as scripts (`allowJs`). */
const SCRIPT = /\.[cm]?jsx?$/i;

/**
 * True for a JavaScript file. There the checker gives a function more than its declaration
 * writes: a `@type` tag can replace its type, `@overload` tags add signatures, and a body
 * using `arguments` gains a rest parameter.
 */
export function isScriptFileName(fileName: string): boolean {
  return SCRIPT.test(fileName);
}
