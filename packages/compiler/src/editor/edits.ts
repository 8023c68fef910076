/** One replacement in a file's text: `length` characters at `start` become `newText`. */
export interface TextEdit {
  readonly fileName: string;
  readonly start: number;
  readonly length: number;
  readonly newText: string;
}
