import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { quietly } from "../runner/observe-run.js";
import type { RunObserver, ServedCallEnding, ServedCallStart } from "../runner/observer.js";

/**
 * Serves one call under the server's observers: each hears it start, then how it ended
 * (the result the client gets, or the exception). An observer never changes the call:
 * what it throws is ignored.
 */
export async function observeCall(
  observers: readonly RunObserver[],
  start: ServedCallStart,
  serve: () => Promise<CallToolResult>,
): Promise<CallToolResult> {
  if (observers.length === 0) return serve();
  const ends = observers.flatMap((o) => quietly(() => o.servedCall?.(start)) ?? []);
  const tell = (ending: ServedCallEnding) => {
    for (const end of ends) quietly(() => end(ending));
  };
  try {
    const result = await serve();
    const content = result.content.map((part) => (part.type === "text" ? part.text : `[${part.type}]`)).join("\n");
    tell({ isError: result.isError === true, content });
    return result;
  } catch (error) {
    tell({ error });
    throw error;
  }
}
