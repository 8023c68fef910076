export type { AgentOptions, RunInput, RunOptions } from "./agent/agent.js";
export { Agent } from "./agent/agent.js";
export type { ToolCallError, ToolErrorOptions, ValidationIssue } from "./errors.js";
export {
  AgentConfigError,
  Retry,
  RunStateError,
  SchemaDefinitionError,
  ToolArgumentError,
  ToolDefinitionError,
  ToolError,
  ToolExceptionError,
  ToolShapeError,
  ToolTimeoutError,
  ToolwrightError,
} from "./errors.js";
export type { ToolContext, ToolLogger, ToolProgress, Usage } from "./invoke/context.js";
export type {
  ArgumentCheck,
  Repair,
  RepairKind,
  RunToolOptions,
  ToolContextInit,
  ToolRunResult,
} from "./invoke/invoke.js";
export { DEFAULT_TIMEOUT_MS, invoke, runTool, validateArguments } from "./invoke/invoke.js";
export { capResult, DEFAULT_MAX_RESULT_CHARS, serializeResult } from "./invoke/result.js";
export type { Memory, MemoryOptions } from "./memory/memory.js";
export type { MemoryEntry, MemoryStore } from "./memory/memory-store.js";
export type {
  AssistantMessage,
  MediaPart,
  Message,
  OutcomeKind,
  SystemMessage,
  TokenUsage,
  ToolCall,
  ToolResultMessage,
  UserMessage,
} from "./model/messages.js";
export type {
  FinishReason,
  Model,
  ModelRequest,
  ModelResponse,
  ModelStreamEvent,
  OutputFormat,
  OutputMode,
  ToolChoice,
  ToolDefinition,
} from "./model/model.js";
export type { GeneratedSchemaEntry } from "./output/generated-schemas.js";
export { lookupGeneratedSchema, registerSchemas } from "./output/generated-schemas.js";
export type { PartialOutput } from "./output/partial-answer.js";
export type { SchemaOptions } from "./output/schema.js";
export { schema } from "./output/schema.js";
export type { CompiledSchema, SchemaSpec } from "./output/spec.js";
export { isSchemaSpec, SCHEMA_SPEC_VERSION } from "./output/spec.js";
export type { ApprovalTier } from "./policy/autonomy.js";
export type { Capability } from "./policy/capabilities.js";
export { CAPABILITIES } from "./policy/capabilities.js";
export type { EgressOptions } from "./policy/egress-allowlist.js";
export type { ToolFetch } from "./policy/guarded-fetch.js";
export type { EgressLookup } from "./policy/resolve-check.js";
export type { PolicyOptions } from "./policy/run-policy.js";
export type { TrifectaAction } from "./policy/trifecta.js";
// Only the error classes: resolveModel and the adapters load undici, so they live on the
// "toolwright/providers" subpath and an agent given a Model object never pays for them.
export { ModelConfigError, ProviderError, ProviderStreamError, ProviderTimeoutError } from "./providers/errors.js";
export type { ResolveModelOptions, RetryOptions } from "./providers/index.js";
export type { ToolExceptionPolicy } from "./runner/env.js";
export type {
  AfterToolHook,
  AgentHooks,
  BeforeToolDecision,
  BeforeToolHook,
  ModelMiddleware,
  ToolCallResult,
  ToolHookCall,
} from "./runner/hooks.js";
export type {
  CallerRef,
  RunEnding,
  RunListener,
  RunObserver,
  RunStart,
  ServedCallEnding,
  ServedCallStart,
} from "./runner/observer.js";
export type { RepeatedCallPolicy } from "./runner/repeated-calls.js";
export type { ToolRetryPolicy } from "./runner/retry.js";
export {
  BudgetExceededError,
  InvalidAnswerError,
  MaxDepthExceededError,
  MaxTurnsExceededError,
  RepeatedCallError,
  RunAbortedError,
  RunError,
  ToolCallFailedError,
} from "./runner/run-errors.js";
export type { AgentStreamEvent, RunResult } from "./runner/run-result.js";
export type { RunStateJson, RunStateLoadOptions, StateOwner } from "./runner/run-state.js";
export { RUN_STATE_VERSION, RunState } from "./runner/run-state.js";
export type { SubAgentToolOptions } from "./runner/sub-agent.js";
export type { CallRecord, Interruption, LogLine, RunStatus, StepRecord } from "./runner/types.js";
export type { ModelPrice, PriceTable } from "./runner/usage.js";
export { DEFAULT_PRICES } from "./runner/usage.js";
export { JSON_SCHEMA_TARGETS } from "./standard/json-schema.js";
export type { JsonOf, Schema, SchemaCheck, StandardProps } from "./standard/schema.js";
export type { ToolSchemas } from "./standard/tool-schemas.js";
export { toolSchemas } from "./standard/tool-schemas.js";
export type { ToolMethodDecorator } from "./tools/decorators.js";
export type { DescriptorArgs, ToolDescriptor } from "./tools/define-tool.js";
export { bindArguments } from "./tools/function-tool.js";
export type { GeneratedSpecEntry } from "./tools/generated-specs.js";
export { lookupGeneratedSpec, registerSpecs } from "./tools/generated-specs.js";
export type { RegisterOptions } from "./tools/registry.js";
export { ToolRegistry } from "./tools/registry.js";
export type { RejectedSpec } from "./tools/rejected-spec.js";
export type {
  CompiledFunction,
  CompiledSpec,
  JsonSchema,
  ParamSlot,
  SourceLocation,
  ToolFlags,
  ToolSpec,
} from "./tools/spec.js";
export { ISSUE_KEYWORDS, isToolSpec, SPEC_VERSION } from "./tools/spec.js";
export type { StandardResult, StandardSchema } from "./tools/standard-schema.js";
export { tool } from "./tools/tool.js";
export type { ToolDeps } from "./tools/tool-deps.js";
export { asTool, toTool } from "./tools/tool-input.js";
export type {
  AnyFunction,
  ApprovalPredicate,
  FunctionTool,
  InvokableTool,
  Tool,
  ToolArgs,
  ToolInput,
  ToolOptions,
} from "./tools/tool-types.js";
export { toolsOf } from "./tools/tools-of.js";
