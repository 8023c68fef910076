/**
 * `toolwright/telemetry`: OpenTelemetry spans for runs and served MCP calls, through
 * `@opentelemetry/api` (an optional peer dependency, loaded only by this entry).
 */
export type { OpenTelemetryOptions } from "./open-telemetry.js";
export { openTelemetry } from "./open-telemetry.js";
