import { describe, expect, it } from "vitest";
import { readSse, type SseEvent } from "../../src/providers/sse.js";

/** The events read from a body delivered in exactly these byte chunks. */
async function eventsOf(chunks: readonly Uint8Array[]): Promise<SseEvent[]> {
  async function* body() {
    yield* chunks;
  }
  const events: SseEvent[] = [];
  for await (const event of readSse(body())) events.push(event);
  return events;
}

const bytes = (text: string) => Buffer.from(text, "utf8");

describe("readSse", () => {
  it("joins a multi-byte character split across two chunks", async () => {
    const whole = bytes('data: {"t":"16°C"}\n\n');
    const at = whole.indexOf(0xc2) + 1; // inside "°" (0xc2 0xb0)
    expect(await eventsOf([whole.subarray(0, at), whole.subarray(at)])).toEqual([
      { event: undefined, data: '{"t":"16°C"}' },
    ]);
  });

  it("drops an event whose closing blank line never came, even when its data line is whole", async () => {
    expect(await eventsOf([bytes("event: a\ndata: 1\n\nevent: stop\ndata: {}\n")])).toEqual([
      { event: "a", data: "1" },
    ]);
  });

  it("drops an event cut inside a multi-byte character at the end of the stream", async () => {
    const whole = bytes('data: 1\n\ndata: "Zürich"\n\n');
    expect(await eventsOf([whole.subarray(0, whole.indexOf(0xc3) + 1)])).toEqual([{ event: undefined, data: "1" }]);
  });
});
