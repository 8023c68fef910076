export type { ToolContext, ToolLogger, Usage } from "./context.js";
export { ToolDefinitionError, ToolwrightError } from "./errors.js";
export type { GeneratedSpecEntry } from "./generated-specs.js";
export { lookupGeneratedSpec, registerSpecs } from "./generated-specs.js";
export type {
  AssistantMessage,
  Message,
  OutcomeKind,
  SystemMessage,
  TokenUsage,
  ToolCall,
  ToolResultMessage,
  UserMessage,
} from "./messages.js";
export type {
  FinishReason,
  Model,
  ModelRequest,
  ModelResponse,
  ModelStreamEvent,
  ToolChoice,
  ToolDefinition,
} from "./model.js";
export type {
  CompiledFunction,
  CompiledSpec,
  JsonSchema,
  ParamSlot,
  SourceLocation,
  ToolFlags,
  ToolSpec,
} from "./spec.js";
export { isToolSpec, SPEC_VERSION } from "./spec.js";
export type { ApprovalPredicate, FunctionTool, Tool, ToolArgs, ToolInput, ToolOptions } from "./tool.js";
export { tool } from "./tool.js";
