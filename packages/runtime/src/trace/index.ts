/**
 * `toolwright/trace`: a run as a readable tree or as one HTML page, and saved runs read
 * back with clear errors. Every run result also prints itself: `result.trace()`.
 */
export { renderRunPage } from "./page.js";
export type { RunRecord, TracedRun } from "./run-record.js";
export { RUN_RECORD_FORMAT, RUN_RECORD_VERSION } from "./run-record.js";
export { readSavedRun } from "./saved-run.js";
export { SavedRunError } from "./saved-run-error.js";
export type { TraceOptions } from "./tree.js";
export { formatTrace } from "./tree.js";
