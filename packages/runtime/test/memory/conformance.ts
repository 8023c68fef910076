import { afterEach, beforeEach, expect, it } from "vitest";
import type { MemoryStore } from "../../src/memory/index.js";

/**
 * What every memory store must do, run by each store's test in a few lines: round trips,
 * replacement, scopes kept apart, search ranking and its empty answers, query text that
 * would be syntax to a database.
 */
export function runMemoryConformance(open: () => Promise<MemoryStore>): void {
  let store: MemoryStore;
  beforeEach(async () => {
    store = await open();
  });
  afterEach(async () => {
    await store.close?.();
  });

  it("round-trips an entry and replaces it under the same key", async () => {
    await store.put("user:1", "airline", "Prefers KLM, aisle seat.");
    expect(await store.get("user:1", "airline")).toMatchObject({ key: "airline", text: "Prefers KLM, aisle seat." });
    await store.put("user:1", "airline", "Prefers Lufthansa now.");
    expect((await store.get("user:1", "airline"))?.text).toBe("Prefers Lufthansa now.");
    expect(await store.search("user:1", "KLM", 5)).toEqual([]);
    expect((await store.search("user:1", "lufthansa", 5)).map((e) => e.key)).toEqual(["airline"]);
  });

  it("forgets, and says whether there was something to forget", async () => {
    await store.put("user:1", "diet", "Vegetarian.");
    expect(await store.delete("user:1", "diet")).toBe(true);
    expect(await store.delete("user:1", "diet")).toBe(false);
    expect(await store.get("user:1", "diet")).toBeUndefined();
    expect(await store.search("user:1", "vegetarian", 5)).toEqual([]);
  });

  it("keeps scopes apart", async () => {
    await store.put("user:1", "city", "Lives in Lyon.");
    await store.put("user:2", "city", "Lives in Oslo.");
    expect((await store.get("user:2", "city"))?.text).toBe("Lives in Oslo.");
    expect((await store.search("user:1", "lives", 5)).map((e) => e.text)).toEqual(["Lives in Lyon."]);
    expect(await store.get("session:x", "city")).toBeUndefined();
  });

  it("answers a search of an empty store, or of a query with no words, with nothing", async () => {
    expect(await store.search("user:empty", "anything at all", 5)).toEqual([]);
    await store.put("user:1", "pet", "Has a cat named Miso.");
    expect(await store.search("user:1", "  ?!  ", 5)).toEqual([]);
    expect(await store.search("user:1", "", 5)).toEqual([]);
  });

  it("ranks the entry matching more of the words first, finds words in keys, and honours the limit", async () => {
    await store.put("user:1", "pet", "Has a cat named Miso.");
    await store.put("user:1", "allergy", "Allergic to cat hair and to peanuts.");
    await store.put("user:1", "car", "Drives an old Volvo.");
    const found = await store.search("user:1", "cat peanuts", 5);
    expect(found.map((e) => e.key)).toEqual(["allergy", "pet"]);
    expect((await store.search("user:1", "cat", 1)).length).toBe(1);
    expect((await store.search("user:1", "car", 5)).map((e) => e.key)).toEqual(["car"]);
  });

  it("reads query syntax as plain words", async () => {
    await store.put("user:1", "note", 'He said "NEAR" OR AND NOT * the word: done.');
    const found = await store.search("user:1", '"NEAR" OR (AND) NOT* col:umn -x & | !', 5);
    expect(found.map((e) => e.key)).toEqual(["note"]);
  });

  it("stores text as given, quotes and unicode included", async () => {
    const text = "Prénom: Zoë; quote ' and \" and emoji 🚀; back\\slash";
    await store.put("user:1", "name", text);
    expect((await store.get("user:1", "name"))?.text).toBe(text);
    expect((await store.search("user:1", "zoë", 5)).map((e) => e.key)).toEqual(["name"]);
  });

  it("round-trips U+0000 and U+FFFF in scopes, keys and texts, each key its own", async () => {
    const scope = "user:a\u0000b";
    await store.put(scope, "k\u0000", "before\u0000after \uFFFF\uFFFE \uFFFF");
    await store.put(scope, "k\uFFFF\uFFFE", "the escape itself");
    await store.put(scope, "k", "plain");
    expect((await store.get(scope, "k\u0000"))?.text).toBe("before\u0000after \uFFFF\uFFFE \uFFFF");
    expect((await store.get(scope, "k\uFFFF\uFFFE"))?.text).toBe("the escape itself");
    expect((await store.get(scope, "k"))?.text).toBe("plain");
    expect(await store.get("user:a", "k\u0000")).toBeUndefined();
    expect((await store.search(scope, "after", 5)).map((e) => e.key)).toEqual(["k\u0000"]);
    expect(await store.delete(scope, "k\u0000")).toBe(true);
    expect(await store.get(scope, "k\u0000")).toBeUndefined();
    expect((await store.get(scope, "k\uFFFF\uFFFE"))?.text).toBe("the escape itself");
  });
}
