import type { Backend } from "./backend/backend.js";

/**
 * What finding a program's tool sites reads about its files without walking them: where
 * each file's module references lead and whether it declares globals. The compiler answers
 * ({@link compilerModuleFacts}); a cache that knows unchanged files may answer for them, as
 * long as every answer is the compiler's for the program at hand.
 */
export interface ModuleFacts {
  /** As {@link Backend.moduleTargets}: the files each file's module references resolve to, undefined when unknown. */
  moduleTargets(fileNames: readonly string[]): ReadonlyMap<string, readonly string[] | undefined>;
  /** As {@link Backend.declaresGlobals}, by name; false for a file the program does not hold. */
  declaresGlobals(fileName: string): boolean;
  /** Whether the file's text has the word `toolwright` anywhere (an installed library that may link to it). */
  namesToolwright(fileName: string): boolean;
}

/** Whether a file's content (its text, or its UTF-8 bytes) has the word `toolwright`. */
export function mentionsToolwright(content: string | Buffer): boolean {
  return content.includes("toolwright");
}

/** {@link ModuleFacts.namesToolwright} of a file, from its text as the compiler reads it. */
export function namesToolwrightIn(backend: Backend, fileName: string): boolean {
  const text = backend.fileText(fileName);
  return text !== undefined && mentionsToolwright(text);
}

/** {@link Backend.declaresGlobals} of a program file, by name (parses it). */
export function declaresGlobalsIn(backend: Backend, fileName: string): boolean {
  const file = backend.sourceFile(fileName);
  return file !== undefined && backend.declaresGlobals(file);
}

/** The facts as the compiler answers them, asked on every call. */
export function compilerModuleFacts(backend: Backend): ModuleFacts {
  return {
    moduleTargets: (fileNames) => backend.moduleTargets(fileNames),
    declaresGlobals: (fileName) => declaresGlobalsIn(backend, fileName),
    namesToolwright: (fileName) => namesToolwrightIn(backend, fileName),
  };
}
