import { describe, expect, it } from "vitest";
import * as dialects from "../../src/dialects/index.js";
import * as providers from "../../src/providers/index.js";

// The public surfaces of toolwright/providers and toolwright/dialects: a change here is a
// change users see, so it is made on purpose.
describe("subpath exports", () => {
  it("toolwright/providers", () => {
    expect(Object.keys(providers).sort()).toEqual([
      "CHAT_QUIRKS",
      "HttpModel",
      "ModelConfigError",
      "ProviderError",
      "ProviderStreamError",
      "ProviderTimeoutError",
      "anthropicCodec",
      "geminiCodec",
      "isRetryableStatus",
      "openAiChatCodec",
      "openAiResponsesCodec",
      "resolveModel",
      "retryDelayMs",
      "serverDelayMs",
    ]);
  });

  it("toolwright/dialects", () => {
    expect(Object.keys(dialects).sort()).toEqual([
      "GEMINI_SCHEMA_FIELDS",
      "OPENAI_STRICT_LIMITS",
      "anthropicDialect",
      "anthropicStrictDialect",
      "dialectOfTarget",
      "dialects",
      "geminiDialect",
      "geminiLegacyDialect",
      "isDialectName",
      "isStrictResult",
      "mcpAnnotations",
      "mcpDialect",
      "nullable",
      "openAiDialect",
      "openAiNonStrictDialect",
      "openAiStrictDialect",
    ]);
  });
});
