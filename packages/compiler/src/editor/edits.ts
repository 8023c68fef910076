/** One replacement in a file's text: `length` characters at `start` become `newText`. */
export interface TextEdit {
  readonly fileName: string;
  readonly start: number;
  readonly length: number;
  readonly newText: string;
}

/** The spaces and tabs that start the line `position` is on, up to `position`. */
export function indentationAt(text: string, position: number): string {
  const lineStart = text.lastIndexOf("\n", position - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart, position))?.[0] ?? "";
}
