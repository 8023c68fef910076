import { createParser } from "eventsource-parser";

/** One server-sent event: its `event:` name (if any) and its `data:`. */
export interface SseEvent {
  readonly event: string | undefined;
  readonly data: string;
}

/**
 * Reads server-sent events from a byte stream, parsed by eventsource-parser. An event whose
 * closing blank line never arrived is dropped: a cut stream must not yield a half event.
 */
export async function* readSse(body: AsyncIterable<Uint8Array>): AsyncGenerator<SseEvent> {
  const queue: SseEvent[] = [];
  const parser = createParser({ onEvent: (e) => queue.push({ event: e.event, data: e.data }) });
  const decoder = new TextDecoder();
  for await (const chunk of body) {
    parser.feed(decoder.decode(chunk, { stream: true }));
    yield* queue.splice(0);
  }
  parser.feed(decoder.decode());
  yield* queue.splice(0);
}
