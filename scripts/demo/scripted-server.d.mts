/** Starts the offline demo's scripted OpenAI-compatible server on a free port of 127.0.0.1. */
export function startScriptedServer(): Promise<{ readonly url: string; close(): Promise<void> }>;
