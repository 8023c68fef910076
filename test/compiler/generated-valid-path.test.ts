import fc from "fast-check";
import { type Tool, type ToolSpec, validateArguments } from "toolwright";
import { beforeAll, describe, expect, it } from "vitest";
// Not on the compiler's public surface: the generator, for a schema written here.
import { validatorSource } from "../../packages/compiler/src/validator/validator-source.js";
import { compileFixtures, type FixtureResult, fixtureCases } from "./compile-fixtures.js";
import { valuesFor } from "./schema-values.js";

// A tool with a generated check takes a short path for valid arguments (its reader, or one
// copy and the check; a shared empty repairs list); everything else goes the full way, as a
// hand-written tool's arguments always do. Both must give the same verdict and the same
// frozen private copy.

type Schema = Record<string, unknown>;

/** The compiled tool (spec and generated validator) and its hand-written twin (no spec: the full path only). */
function twins(spec: ToolSpec): { compiled: Tool; handWritten: Tool } {
  const base = { name: spec.name, description: spec.description, parameters: spec.parameters, execute: () => "ran" };
  return { compiled: { ...base, spec } as unknown as Tool, handWritten: base as unknown as Tool };
}

function specOf(parameters: Schema): ToolSpec {
  const source = validatorSource(parameters);
  if (!source) throw new Error("the schema is outside the generator's subset");
  const validator = new Function(`return (${source});`)() as ToolSpec["validator"];
  return { name: "t", description: "A test tool.", parameters, validator } as unknown as ToolSpec;
}

/** Every object and array of `value` frozen. */
function deeplyFrozen(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return true;
  return Object.isFrozen(value) && Object.values(value).every(deeplyFrozen);
}

/** True when no object or array of `value` is frozen. */
function nothingFrozen(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return true;
  return !Object.isFrozen(value) && Object.values(value).every(nothingFrozen);
}

/** The two paths agree on `raw`; returns the compiled tool's result. */
function expectSame(spec: ToolSpec, raw: unknown): ReturnType<typeof validateArguments> {
  const { compiled, handWritten } = twins(spec);
  const fast = validateArguments(compiled, raw);
  const full = validateArguments(handWritten, raw);
  expect(fast.ok).toBe(full.ok);
  if (fast.ok && full.ok) {
    expect(fast.args).toStrictEqual(full.args);
    // Same keys; a reader's copy lists them in the schema's order (see "the reader" below).
    expect(Object.keys(fast.args).sort()).toEqual(Object.keys(full.args).sort());
    expect(fast.repairs).toEqual(full.repairs);
    expect(deeplyFrozen(fast.args)).toBe(true);
    expect(fast.args).not.toBe(raw);
  }
  if (!fast.ok && !full.ok) expect(fast.error.message).toBe(full.error.message);
  return fast;
}

const cases = fixtureCases().filter((name) => !name.startsWith("err-"));
let compiled: Map<string, FixtureResult>;

beforeAll(() => {
  compiled = compileFixtures(cases);
});

describe("valid arguments of a compiled tool", () => {
  it.each(cases)("agree with the full path for the fixture %s", (name) => {
    const specs = (compiled.get(name)?.compiledSpecs ?? []) as ToolSpec[];
    for (const spec of specs.filter((s) => s.validator)) {
      const schema = spec.parameters as Schema;
      fc.assert(
        fc.property(valuesFor(schema, schema), (value) => {
          // A caller's object, never frozen or changed by the call, and the same value as text.
          const before = JSON.stringify(value);
          expectSame(spec, value);
          expect(nothingFrozen(value)).toBe(true);
          expect(JSON.stringify(value)).toBe(before);
          if (before !== undefined) expectSame(spec, before);
        }),
        { numRuns: 60, seed: 14 },
      );
    }
  });
});

const weather = specOf({
  type: "object",
  properties: {
    city: { type: "string" },
    days: { type: "number" },
    when: { type: "string" },
    extra: {},
    place: { type: "object", properties: { zip: { type: "string" } }, additionalProperties: false },
  },
  required: ["city"],
  additionalProperties: false,
});

describe("the short path of valid arguments", () => {
  it("returns a deep-frozen private copy and one shared, frozen empty list of repairs", () => {
    const raw = { city: "Paris", days: 3, place: { zip: "75001" } };
    const check = expectSame(weather, raw);
    expect(check.ok && check.args).toEqual(raw);
    expect(check.ok && check.args.place).not.toBe(raw.place);
    expect(check.ok && Object.isFrozen(check.repairs)).toBe(true);
    expect(nothingFrozen(raw)).toBe(true);
    expect(check.ok && validateArguments(twins(weather).compiled, '{"city":"Rome"}')).toMatchObject({
      ok: true,
      args: { city: "Rome" },
      repairs: check.ok ? check.repairs : undefined,
    });
  });

  it("reports a throwing getter by its path", () => {
    const raw = {
      city: "Paris",
      get days(): number {
        throw new Error("no days");
      },
    };
    const check = expectSame(weather, raw);
    expect(!check.ok && check.error.message).toContain("/days");
  });

  it("reports a revoked proxy, and reads a live one like plain data", () => {
    const { proxy, revoke } = Proxy.revocable({ city: "Paris" }, {});
    expect(expectSame(weather, proxy).ok).toBe(true);
    revoke();
    expect(expectSame(weather, proxy).ok).toBe(false);
  });

  it("takes own enumerable keys only: no inherited key, no non-enumerable one", () => {
    expect(expectSame(weather, Object.create({ city: "Paris" })).ok).toBe(false);
    const hidden = { city: "Paris" };
    Object.defineProperty(hidden, "days", { value: "not a number", enumerable: false });
    const check = expectSame(weather, hidden);
    expect(check.ok && Object.keys(check.args)).toEqual(["city"]);
  });

  it("keeps a key holding undefined, as the full path does", () => {
    const check = expectSame(weather, { city: "Paris", days: undefined });
    expect(check.ok && Object.keys(check.args)).toEqual(["city", "days"]);
  });

  it("treats __proto__ as an ordinary key, never as a prototype", () => {
    const raw = JSON.parse('{"city":"Paris","__proto__":{"polluted":true}}') as object;
    expect(expectSame(weather, raw).ok).toBe(false);
    const open = specOf({ type: "object", properties: { city: { type: "string" } } });
    const check = expectSame(open, raw);
    expect(check.ok && Object.getPrototypeOf(check.args)).toBe(Object.prototype);
    expect(check.ok && Object.keys(check.args)).toEqual(["city", "__proto__"]);
    expect(expectSame(open, '{"city":"Paris","__proto__":{"polluted":true}}').ok).toBe(true);
  });

  it("refuses non-finite numbers, in an object or in text", () => {
    expect(expectSame(weather, { city: "Paris", days: Number.POSITIVE_INFINITY }).ok).toBe(false);
    expect(expectSame(weather, { city: "Paris", extra: [Number.NaN] }).ok).toBe(false);
    const check = expectSame(weather, '{"city":"Paris","extra":1e999}');
    expect(!check.ok && check.error.issues.map((i) => i.code)).toEqual(["not_finite"]);
  });

  it("sends a caller's Date as its ISO string", () => {
    const check = expectSame(weather, { city: "Paris", when: new Date(Date.UTC(2026, 11, 1)) });
    expect(check.ok && check.args.when).toBe("2026-12-01T00:00:00.000Z");
  });

  it("refuses nesting deeper than 64 levels", () => {
    let deep: unknown = 1;
    for (let i = 0; i < 70; i++) deep = [deep];
    const check = expectSame(weather, { city: "Paris", extra: deep });
    expect(!check.ok && check.error.issues.map((i) => i.code)).toEqual(["too_deep"]);
  });

  it("reads a caller's object once, accepted, rejected or refused: its getters run once", () => {
    const refused = new Error("no days");
    for (const days of [3, "three", refused]) {
      let reads = 0;
      const raw = {
        city: "Paris",
        get days(): unknown {
          reads++;
          if (days === refused) throw refused;
          return days;
        },
      };
      expectSame(weather, raw);
      reads = 0;
      validateArguments(twins(weather).compiled, raw);
      expect({ days, reads }).toEqual({ days, reads: 1 });
    }
  });

  it("leaves what the check rejects, or what is not strict JSON, to the full path and its repairs", () => {
    const check = expectSame(weather, '{"city":"Paris","days":"3",}');
    expect(check.ok && check.repairs.map((r) => r.kind)).toEqual(["json_repaired", "string_to_number"]);
    expect(expectSame(weather, "").ok).toBe(false);
    expect(expectSame(weather, '"{\\"city\\":\\"Paris\\"}"').ok).toBe(true);
  });
});

/** A schema the reader covers: closed objects, arrays and primitives only. */
const order = specOf({
  type: "object",
  properties: {
    sku: { type: "string", minLength: 1 },
    quantity: { type: "integer", minimum: 1 },
    note: { type: ["string", "null"] },
    lines: {
      type: "array",
      items: {
        type: "object",
        properties: { text: { type: "string" }, tag: { enum: ["a", "b"] } },
        required: ["text"],
        additionalProperties: false,
      },
      maxItems: 3,
    },
    codes: { type: "array", items: { type: "number" }, uniqueItems: true },
    gift: { type: "boolean" },
  },
  required: ["sku", "quantity", "gift"],
  additionalProperties: false,
});

describe("the reader: check and frozen copy in one pass", () => {
  const { compiled } = twins(order);

  it("is written for objects, arrays and primitives, and not for a schema with a node open to any value", () => {
    const make = (spec: ToolSpec) => spec.validator?.({} as never, spec.parameters);
    expect(typeof make(order)?.read).toBe("function");
    expect(make(weather)?.read).toBeUndefined();
  });

  it("copies a caller's object into deep-frozen fresh objects and arrays, keys in the schema's order", () => {
    const raw = { gift: false, lines: [{ tag: "a", text: "hi" }], quantity: 2, sku: "A-1", codes: [1, 2] };
    const check = expectSame(order, raw);
    expect(check.ok && check.args).toEqual(raw);
    expect(check.ok && Object.keys(check.args)).toEqual(["sku", "quantity", "lines", "codes", "gift"]);
    expect(check.ok && Object.keys((check.args.lines as object[])[0] as object)).toEqual(["text", "tag"]);
    expect(check.ok && check.args.lines).not.toBe(raw.lines);
    expect(nothingFrozen(raw)).toBe(true);
    expect(expectSame(order, JSON.stringify(raw)).ok).toBe(true);
  });

  it("rejects what the check rejects, and the full path reports it", () => {
    expect(expectSame(order, { sku: "", quantity: 1, gift: true }).ok).toBe(false);
    expect(expectSame(order, { sku: "A", quantity: 1.5, gift: true }).ok).toBe(false);
    expect(expectSame(order, { sku: "A", quantity: 1, gift: true, codes: [1, 1] }).ok).toBe(false);
    expect(expectSame(order, { sku: "A", quantity: 1, gift: true, lines: [{}, {}, {}, {}] }).ok).toBe(false);
    expect(expectSame(order, { sku: "A", quantity: 1, gift: true, lines: [{ text: "x", more: 1 }] }).ok).toBe(false);
    expect(expectSame(order, { sku: "A", quantity: Number.POSITIVE_INFINITY, gift: true }).ok).toBe(false);
  });

  it("leaves objects that are not plain data to the full path, which reads own enumerable keys", () => {
    const base = { sku: "A", quantity: 1, gift: true };
    expect(expectSame(order, Object.create(base)).ok).toBe(false);
    expect(expectSame(order, Object.assign(Object.create(null), base)).ok).toBe(true);
    class Line {
      constructor(readonly text: string) {}
      get tag(): string {
        return "a";
      }
    }
    const check = expectSame(order, { ...base, lines: [new Line("x")] });
    expect(check.ok && (check.args.lines as object[])[0]).toEqual({ text: "x" });
    const hidden = { ...base };
    Object.defineProperty(hidden, "note", { value: "hidden", enumerable: false });
    const visible = expectSame(order, hidden);
    expect(visible.ok && Object.keys(visible.args)).not.toContain("note");
    const undefinedKey = expectSame(order, { ...base, note: undefined });
    expect(undefinedKey.ok && Object.keys(undefinedKey.args)).toContain("note");
    expect(expectSame(order, { ...base, codes: new Array<number>(3).fill(1, 0, 1) }).ok).toBe(false); // holes read as undefined
  });

  it("reads an accepted object once; a rejected one is read again by the full path, which reports it", () => {
    for (const [quantity, expected] of [
      [2, 1],
      ["two", 2],
    ] as const) {
      let reads = 0;
      const raw = {
        sku: "A",
        gift: true,
        get quantity(): unknown {
          reads++;
          return quantity;
        },
      };
      expect(validateArguments(compiled, raw).ok).toBe(quantity === 2);
      expect({ quantity, reads }).toEqual({ quantity, reads: expected });
    }
    const throwing = {
      sku: "A",
      gift: true,
      get quantity(): number {
        throw new Error("no quantity");
      },
    };
    const check = expectSame(order, throwing);
    expect(!check.ok && check.error.message).toContain("/quantity");
  });

  it("copies an object open to more keys (a Record) in the order of its keys, each checked by its schema", () => {
    const tags = specOf({
      type: "object",
      properties: {
        id: { type: "string" },
        labels: { type: "object", additionalProperties: { type: "number" } },
      },
      required: ["id"],
      additionalProperties: { type: "string" },
    });
    const make = tags.validator?.({} as never, tags.parameters);
    expect(typeof make?.read).toBe("function");
    const raw = { b: "2", id: "x", labels: { z: 1, a: 2 }, a: "1" };
    const check = expectSame(tags, raw);
    expect(check.ok && Object.keys(check.args)).toEqual(["b", "id", "labels", "a"]);
    expect(check.ok && Object.keys(check.args.labels as object)).toEqual(["z", "a"]);
    expect(check.ok && deeplyFrozen(check.args)).toBe(true);
    expect(expectSame(tags, { id: "x", labels: { z: "one" } }).ok).toBe(false);
    expect(expectSame(tags, { id: "x", other: 3 }).ok).toBe(false);
    expect(expectSame(tags, { labels: {} }).ok).toBe(false);
    expect(expectSame(tags, { id: "x", other: undefined }).ok).toBe(false);
    const proto = expectSame(tags, JSON.parse('{"id":"x","__proto__":"y"}'));
    expect(proto.ok && Object.keys(proto.args)).toEqual(["id", "__proto__"]);
    expect(proto.ok && Object.getPrototypeOf(proto.args)).toBe(Object.prototype);
  });

  it("reads recursive types through their $refs and nullable objects, leaving deep values to the walk", () => {
    const folder = {
      type: "object",
      properties: { name: { type: "string" }, children: { type: "array", items: { $ref: "#/$defs/Folder" } } },
      required: ["name", "children"],
      additionalProperties: false,
    };
    const outline = specOf({
      type: "object",
      properties: {
        root: { $ref: "#/$defs/Folder", description: "The top folder." },
        first: { $ref: "#/$defs/Step" },
        meta: {
          anyOf: [
            { type: "null" },
            { type: "object", properties: { by: { type: "string" } }, additionalProperties: false },
          ],
        },
        // How the compiler writes `Owner | null` and `string[] | null`.
        owner: {
          type: ["object", "null"],
          properties: { id: { type: "string" } },
          required: ["id"],
          additionalProperties: false,
        },
        labels: { type: ["null", "array"], items: { type: "string" } },
      },
      required: ["root", "meta"],
      additionalProperties: false,
      $defs: {
        Folder: folder,
        Step: {
          type: "object",
          properties: { action: { type: "string" }, next: { anyOf: [{ $ref: "#/$defs/Step" }, { type: "null" }] } },
          required: ["action", "next"],
          additionalProperties: false,
        },
      },
    });
    const made = outline.validator?.({} as never, outline.parameters);
    const read = made?.read;
    expect(typeof read).toBe("function");
    expect(typeof made?.issues).toBe("function");
    /** A folder `depth` folders deep (each one an object and an array: two levels). */
    const tree = (depth: number): object => ({ name: `f${depth}`, children: depth > 1 ? [tree(depth - 1)] : [] });
    const steps = { action: "a", next: { action: "b", next: { action: "c", next: null } } };
    const raw = { root: tree(3), first: steps, meta: null };
    const copy = read?.(raw);
    expect(copy).toEqual(raw);
    expect(deeplyFrozen(copy) && nothingFrozen(raw)).toBe(true);
    expect(expectSame(outline, raw).ok).toBe(true);
    expect(expectSame(outline, { root: tree(2), meta: { by: "ada" } }).ok).toBe(true);
    expect(expectSame(outline, { root: tree(2), meta: { by: 1 } }).ok).toBe(false);
    const owned = { root: tree(1), meta: null, owner: { id: "u1" }, labels: ["a"] };
    expect(read?.(owned)).toEqual(owned);
    const none = { root: tree(1), meta: null, owner: null, labels: null };
    expect(read?.(none)).toEqual(none);
    expect(expectSame(outline, owned).ok).toBe(true);
    expect(expectSame(outline, { ...owned, owner: {} }).ok).toBe(false);
    expect(expectSame(outline, { ...owned, labels: "a" }).ok).toBe(false);
    expect(expectSame(outline, { root: tree(2), meta: null, first: { action: "a" } }).ok).toBe(false);
    expect(expectSame(outline, { root: { name: "x", children: [{ name: 1, children: [] }] }, meta: null }).ok).toBe(
      false,
    );
    // 20 folders (41 levels) is within the walk's 64, past what a reader takes on: the walk copies it.
    expect(read?.({ root: tree(20), meta: null })).toBe(false);
    expect(expectSame(outline, { root: tree(20), meta: null }).ok).toBe(true);
    // A class instance the reader leaves to the walk, whose copy is valid: the collector finds nothing wrong.
    class Folder {
      constructor(
        readonly name: string,
        readonly children: Folder[],
      ) {}
    }
    const instance = expectSame(outline, { root: new Folder("top", [new Folder("sub", [])]), meta: null });
    expect(instance.ok && instance.args.root).toEqual({ name: "top", children: [{ name: "sub", children: [] }] });
    const undefinedKey = expectSame(outline, { root: tree(1), meta: null, first: undefined });
    expect(undefinedKey.ok && Object.keys(undefinedKey.args)).toEqual(["root", "meta", "first"]);
    // 40 folders, and a folder holding itself: too deep for both.
    const deep = expectSame(outline, { root: tree(40), meta: null });
    expect(!deep.ok && deep.error.issues[0]?.code).toBe("too_deep");
    const cycle = { name: "loop", children: [] as object[] };
    cycle.children.push(cycle);
    const looped = expectSame(outline, { root: cycle, meta: null });
    expect(!looped.ok && looped.error.issues[0]?.code).toBe("too_deep");
  });

  it("reads a tagged union by its tag: the tag read once, then that branch only", () => {
    const branch = (kind: string | number, field: string) => ({
      type: "object",
      properties: { kind: { type: typeof kind, const: kind }, [field]: { type: "string" } },
      required: ["kind", field],
      additionalProperties: false,
    });
    const find = specOf({
      type: "object",
      properties: { key: { anyOf: [branch("email", "email"), branch("phone", "phone")] } },
      required: ["key"],
      additionalProperties: false,
    });
    const read = find.validator?.({} as never, find.parameters).read;
    expect(typeof read).toBe("function");
    const raw = { key: { phone: "+331", kind: "phone" } };
    const copy = read?.(raw) as { key: object } | false;
    expect(copy).toEqual(raw);
    expect(copy && Object.keys(copy.key)).toEqual(["kind", "phone"]);
    expect(deeplyFrozen(copy)).toBe(true);
    expect(expectSame(find, raw).ok).toBe(true);
    expect(expectSame(find, { key: { kind: "email", email: "a@b.c" } }).ok).toBe(true);
    for (const wrong of [
      { kind: "fax", phone: "1" },
      { kind: "email", phone: "1" },
      { email: "a@b.c" },
      { kind: "phone", phone: 1 },
      "phone",
      null,
    ])
      expect(expectSame(find, { key: wrong }).ok).toBe(false);
    let reads = 0;
    const counted = {
      get kind(): string {
        reads++;
        return "email";
      },
      email: "a@b.c",
    };
    expect(validateArguments(twins(find).compiled, { key: counted }).ok).toBe(true);
    expect(reads).toBe(1);
    // Tags that repeat, or a branch without one, with a nested value (flat objects are read
    // as an untagged union, below): no reader, the walk and the check decide.
    const nested = (kind: string, field: string) => {
      const b = branch(kind, field);
      return { ...b, properties: { ...b.properties, [field]: { type: "array", items: { type: "string" } } } };
    };
    const same = specOf({
      type: "object",
      properties: { key: { anyOf: [nested("a", "x"), nested("a", "y")] } },
      additionalProperties: false,
    });
    expect(same.validator?.({} as never, same.parameters).read).toBeUndefined();
    const untagged = specOf({
      type: "object",
      properties: { key: { anyOf: [nested("a", "x"), { ...nested("b", "y"), required: ["y"] }] } },
      additionalProperties: false,
    });
    expect(untagged.validator?.({} as never, untagged.parameters).read).toBeUndefined();
    const numbered = specOf({
      type: "object",
      properties: { key: { anyOf: [branch(1, "x"), branch(2, "y")] } },
      additionalProperties: false,
    });
    expect(typeof numbered.validator?.({} as never, numbered.parameters).read).toBe("function");
    expect(expectSame(numbered, { key: { kind: 2, y: "b" } }).ok).toBe(true);
    expect(expectSame(numbered, { key: { kind: "2", y: "b" } }).ok).toBe(false);
  });

  it("reads an untagged union of flat objects: every key read once, then the first branch that fits", () => {
    const coordinates = {
      type: "object",
      properties: { lat: { type: "number" }, lon: { type: "number" } },
      required: ["lat", "lon"],
      additionalProperties: false,
    };
    const place = {
      type: "object",
      properties: { city: { type: "string" }, country: { type: "string", enum: ["FR", "DE"] } },
      required: ["city"],
      additionalProperties: false,
    };
    const spec = specOf({
      type: "object",
      properties: { where: { anyOf: [coordinates, place] }, near: { anyOf: [{ type: "null" }, coordinates, place] } },
      required: ["where"],
      additionalProperties: false,
    });
    const read = spec.validator?.({} as never, spec.parameters).read;
    expect(typeof read).toBe("function");
    for (const valid of [
      { where: { lat: 1, lon: 2 } },
      { where: { city: "Paris" }, near: null },
      { where: { country: "FR", city: "Paris" }, near: { lat: 0, lon: 0 } },
    ]) {
      const copy = read?.(valid);
      expect(copy).toEqual(valid);
      expect(deeplyFrozen(copy)).toBe(true);
      expect(expectSame(spec, valid).ok).toBe(true);
    }
    for (const wrong of [
      { where: { lat: 1 } },
      { where: { lat: 1, lon: 2, city: "Paris" } },
      { where: { city: "Paris", country: "IT" } },
      { where: { city: 1 } },
      { where: {} },
      { where: { lat: 1, lon: 2, alt: 3 } },
      { where: "Paris" },
      { where: { city: "Paris" }, near: [1] },
    ]) {
      expect(read?.(wrong)).toBe(false);
      expect(expectSame(spec, wrong).ok).toBe(false);
    }
    // The first branch does not fit, the second does: each getter still runs once.
    const reads: string[] = [];
    const counted = {
      get city(): string {
        reads.push("city");
        return "Paris";
      },
      get country(): string {
        reads.push("country");
        return "FR";
      },
    };
    expect(read?.({ where: counted })).toEqual({ where: { city: "Paris", country: "FR" } });
    expect(reads.sort()).toEqual(["city", "country"]);
    reads.length = 0;
    expect(validateArguments(twins(spec).compiled, { where: counted }).ok).toBe(true);
    expect(reads.sort()).toEqual(["city", "country"]);
  });

  it("reads a union of different kinds by the value's kind: each value read once, no trial of branches", () => {
    const item = {
      type: "object",
      properties: { sku: { type: "string" } },
      required: ["sku"],
      additionalProperties: false,
    };
    const pick = specOf({
      type: "object",
      properties: {
        tags: { anyOf: [{ type: "string" }, { type: "array", items: { type: "string" } }] },
        choice: { anyOf: [{ type: "number" }, item, { type: "null" }] },
      },
      required: ["tags"],
      additionalProperties: false,
    });
    const read = pick.validator?.({} as never, pick.parameters).read;
    expect(typeof read).toBe("function");
    const raw = { tags: ["a", "b"], choice: { sku: "x" } };
    const copy = read?.(raw) as typeof raw | false;
    expect(copy).toEqual(raw);
    expect((copy as typeof raw).tags).not.toBe(raw.tags);
    expect(deeplyFrozen(copy)).toBe(true);
    for (const valid of [{ tags: "a" }, { tags: [], choice: 2 }, { tags: "a", choice: null }, raw]) {
      expect(read?.(valid)).toEqual(valid);
      expect(expectSame(pick, valid).ok).toBe(true);
    }
    for (const wrong of [
      { tags: 1 },
      { tags: ["a", 1] },
      { tags: {} },
      { tags: "a", choice: "two" },
      { tags: "a", choice: [1] },
      { tags: "a", choice: { sku: 1 } },
      { tags: "a", choice: { sku: "x", more: 1 } },
    ]) {
      expect(read?.(wrong)).toBe(false);
      expect(expectSame(pick, wrong).ok).toBe(false);
    }
    let reads = 0;
    const counted = {
      get sku(): string {
        reads++;
        return "x";
      },
    };
    expect(validateArguments(twins(pick).compiled, { tags: "a", choice: counted }).ok).toBe(true);
    expect(reads).toBe(1);
    // Two object branches with no tag between them: no reader, the walk and the check decide.
    const untagged = specOf({
      type: "object",
      properties: {
        choice: { anyOf: [{ type: "string" }, item, { ...item, properties: { id: { type: "number" } } }] },
      },
      additionalProperties: false,
    });
    expect(untagged.validator?.({} as never, untagged.parameters).read).toBeUndefined();
  });

  it("reads a recursive union of kinds, copying false as false", () => {
    const json = specOf({
      type: "object",
      properties: { meta: { $ref: "#/$defs/Json" } },
      required: ["meta"],
      additionalProperties: false,
      $defs: {
        Json: {
          anyOf: [
            { type: "string" },
            { type: "number" },
            { type: "boolean" },
            { type: "null" },
            { type: "array", items: { $ref: "#/$defs/Json" } },
            { type: "object", additionalProperties: { $ref: "#/$defs/Json" } },
          ],
        },
      },
    });
    const read = json.validator?.({} as never, json.parameters).read;
    expect(typeof read).toBe("function");
    for (const meta of [false, [false], { a: false }, { a: [true, false, null, "x", 1, { b: false }] }]) {
      const copy = read?.({ meta });
      expect(copy).toEqual({ meta });
      expect(deeplyFrozen(copy)).toBe(true);
      expect(expectSame(json, { meta }).ok).toBe(true);
    }
    for (const meta of [() => 1, [Number.NaN]]) expect(read?.({ meta })).toBe(false);
  });

  it("reads tuples: each position by its own schema, the rest by items or none", () => {
    const tuple = specOf({
      type: "object",
      properties: {
        pair: { type: "array", prefixItems: [{ type: "number" }, { type: "string" }], items: false, minItems: 1 },
        path: { type: "array", prefixItems: [{ type: "string" }], items: { type: "number" } },
      },
      additionalProperties: false,
    });
    const read = tuple.validator?.({} as never, tuple.parameters).read;
    expect(typeof read).toBe("function");
    for (const valid of [{ pair: [1, "a"] }, { pair: [1] }, { path: ["start", 1, 2] }, { path: [] }]) {
      const copy = read?.(valid);
      expect(copy).toEqual(valid);
      expect(deeplyFrozen(copy)).toBe(true);
      expect(expectSame(tuple, valid).ok).toBe(true);
    }
    for (const wrong of [
      { pair: [] },
      { pair: [1, "a", 2] },
      { pair: ["a", 1] },
      { path: [1] },
      { path: ["a", "b"] },
    ]) {
      expect(read?.(wrong)).toBe(false);
      expect(expectSame(tuple, wrong).ok).toBe(false);
    }
  });

  it("reads patternProperties: each key checked by its property and every pattern it matches", () => {
    const spec = specOf({
      type: "object",
      properties: {
        headers: {
          type: "object",
          properties: { host: { type: "string" }, "x-mode": { type: "string" } },
          required: ["host"],
          patternProperties: { "^x-": { type: ["string", "number"], pattern: "^[a-z]*$" }, "-id$": { type: "number" } },
          additionalProperties: false,
        },
        flags: {
          type: "object",
          patternProperties: { "^t": { type: "string" } },
          additionalProperties: { type: "boolean" },
        },
      },
      additionalProperties: false,
    });
    const read = spec.validator?.({} as never, spec.parameters).read;
    expect(typeof read).toBe("function");
    for (const valid of [
      { headers: { "x-id": 2, host: "h", "x-mode": "abc" } },
      { headers: { host: "h", "req-id": 3 } },
      { flags: { on: true, tag: "a" } },
      {},
    ]) {
      const copy = read?.(valid);
      expect(copy).toEqual(valid);
      expect(deeplyFrozen(copy)).toBe(true);
      // An open object's copy keeps the value's key order, as the walk's does.
      const headerKeys = (value: unknown) => Object.keys((value as { headers?: object }).headers ?? {});
      expect(headerKeys(copy)).toEqual(headerKeys(valid));
      expect(expectSame(spec, valid).ok).toBe(true);
    }
    for (const wrong of [
      { headers: { host: "h", other: "x" } },
      { headers: { host: "h", "x-a": true } },
      { headers: { host: "h", "x-mode": "ABC" } },
      { headers: { host: "h", "x-id": "two" } },
      { headers: { "x-a": "b" } },
      { flags: { tag: 1 } },
      { flags: { on: 2 } },
    ]) {
      expect(read?.(wrong)).toBe(false);
      expect(expectSame(spec, wrong).ok).toBe(false);
    }
  });

  it("reads a live proxy like plain data and reports a revoked one", () => {
    const { proxy, revoke } = Proxy.revocable({ sku: "A", quantity: 1, gift: true }, {});
    expect(expectSame(order, proxy).ok).toBe(true);
    revoke();
    expect(expectSame(order, proxy).ok).toBe(false);
  });
});
