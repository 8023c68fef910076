/**
 * `{ model }` when a provider's answer names the model that wrote it (`"model"` in OpenAI's
 * and Anthropic's bodies, `"modelVersion"` in Gemini's), else nothing: the spread a parsed
 * `ModelResponse` takes.
 */
export function respondingModel(model: unknown): { readonly model?: string } {
  return typeof model === "string" && model !== "" ? { model } : {};
}
