/** Base class of every error toolwright throws. */
export class ToolwrightError extends Error {
  override name = "ToolwrightError";
}

/** A tool is defined wrongly: a user's configuration or build mistake, found before any call runs. */
export class ToolDefinitionError extends ToolwrightError {
  override name = "ToolDefinitionError";
  constructor(
    message: string,
    /** The tool's name, or the function's name when the tool has none yet. */
    readonly toolName: string,
  ) {
    super(message);
  }
}
