import { describe, expect, it } from "vitest";
import { ToolError } from "../../src/index.js";
import { InMemoryStore } from "../../src/memory/index.js";
import { scopedMemory } from "../../src/memory/memory.js";

function memory(maxChars = 10) {
  const store = new InMemoryStore();
  const reads: number[] = [];
  return { store, reads, memory: scopedMemory(store, "user:1", maxChars, () => reads.push(1)) };
}

describe("ctx.memory", () => {
  it("refuses bad input with a message, storing nothing", async () => {
    const { store, memory: m } = memory();
    await expect(m.remember("", "x")).rejects.toThrow(ToolError);
    await expect(m.remember("", "x")).rejects.toThrow(
      'a memory key must be a non-empty string of at most 200 characters, got "".',
    );
    await expect(m.remember("k".repeat(201), "x")).rejects.toThrow(/at most 200 characters/);
    await expect(m.remember("k", 42 as unknown as string)).rejects.toThrow(
      'memory "k" not stored: its text must be a string.',
    );
    await expect(m.remember("k", "12345678901")).rejects.toThrow(
      'memory "k" not stored: its text is 11 characters and the limit is 10. Store a shorter summary.',
    );
    expect(await store.get("user:1", "k")).toBeUndefined();
    await expect(m.search("x", 0)).rejects.toThrow("memory search limit must be a whole number from 1 to 50, got 0.");
    await expect(m.search("x", 51)).rejects.toThrow(/from 1 to 50, got 51/);
  });

  it("keeps the old text when a replacement is over the cap", async () => {
    const { memory: m } = memory();
    await m.remember("k", "short");
    await expect(m.remember("k", "far too long")).rejects.toThrow(/not stored/);
    expect(await m.recall("k")).toBe("short");
  });

  it("reports a read only when text comes back", async () => {
    const { reads, memory: m } = memory();
    expect(await m.recall("missing")).toBeUndefined();
    expect(await m.search("nothing", 5)).toEqual([]);
    expect(reads).toEqual([]);
    await m.remember("k", "hello");
    expect(await m.recall("k")).toBe("hello");
    expect((await m.search("hello")).map((e) => e.key)).toEqual(["k"]);
    expect(reads).toEqual([1, 1]);
  });
});
