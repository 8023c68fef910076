import { ToolwrightError } from "../errors.js";

/** A saved run cannot be read: not JSON, cut short, from another version, or not a run at all. */
export class SavedRunError extends ToolwrightError {
  override name = "SavedRunError";

  constructor(
    /** The file (or other source) the run was read from. */
    readonly file: string,
    /** What is wrong and how to fix it. */
    readonly problem: string,
  ) {
    super(`${file}: ${problem}`);
  }
}
