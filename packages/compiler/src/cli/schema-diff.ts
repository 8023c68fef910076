import type { JsonSchema } from "toolwright";

/** One difference between the locked and the current schema of a tool's arguments. */
export interface SchemaChange {
  /** Whether a caller that was valid before may now be rejected. */
  readonly breaking: boolean;
  /** Where in the arguments object, e.g. `cabin` or `filters.maxPrice`; empty for the root. */
  readonly path: string;
  readonly message: string;
}

type Schema = Record<string, unknown>;

/** Keywords whose larger value accepts fewer values. */
const LOWER_BOUNDS = ["minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties"] as const;
/** Keywords whose smaller value accepts fewer values. */
const UPPER_BOUNDS = ["maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties"] as const;
/** Keywords where any new or changed value may reject what passed before. */
const EXACT_KEYWORDS = ["pattern", "format", "multipleOf", "const", "uniqueItems"] as const;

/** Follows a local `#/$defs/Name` (or `#/definitions/Name`) reference against the root schema. */
function deref(schema: Schema, root: Schema): Schema {
  let current = schema;
  for (let hops = 0; typeof current.$ref === "string" && hops < 32; hops++) {
    const match = /^#\/(\$defs|definitions)\/(.+)$/.exec(current.$ref);
    const defs = match ? (root[match[1] as string] as Record<string, Schema> | undefined) : undefined;
    const target =
      match && defs
        ? defs[
            decodeURIComponent(match[2] as string)
              .replace(/~1/g, "/")
              .replace(/~0/g, "~")
          ]
        : undefined;
    if (!target) break;
    current = { ...target, ...Object.fromEntries(Object.entries(current).filter(([k]) => k !== "$ref")) };
  }
  return current;
}

function asSchema(value: unknown): Schema | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Schema) : undefined;
}

/** The JSON types a schema admits, or undefined when it does not say (any type). */
function typesOf(schema: Schema): Set<string> | undefined {
  const type = schema.type;
  if (typeof type === "string") return new Set(type === "integer" ? ["integer"] : [type]);
  if (Array.isArray(type)) return new Set(type.filter((t): t is string => typeof t === "string"));
  return undefined;
}

function sameTypes(a: Schema, b: Schema): boolean {
  const list = (s: Schema) => [...(typesOf(s) ?? [])].sort().join("|");
  return list(a) === list(b);
}

function typeAccepted(type: string, accepted: Set<string>): boolean {
  return accepted.has(type) || (type === "integer" && accepted.has("number"));
}

function stable(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stable).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value as Schema).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stable(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

function show(value: unknown): string {
  return typeof value === "string" ? JSON.stringify(value) : stable(value);
}

/** How a union member reads in a message: its constant, its type, or its shape. */
function labelOf(schema: Schema): string {
  if ("const" in schema) return show(schema.const);
  const types = typesOf(schema);
  return types ? [...types].join(" | ") : "another shape";
}

function join(path: string, key: string): string {
  return path ? `${path}.${key}` : key;
}

/** Walks two schemas side by side and records what the change does to the values they accept. */
class SchemaDiffer {
  readonly changes: SchemaChange[] = [];
  private readonly seen = new Set<string>();

  constructor(
    private readonly oldRoot: Schema,
    private readonly newRoot: Schema,
  ) {}

  private add(breaking: boolean, path: string, message: string): void {
    this.changes.push({ breaking, path, message });
  }

  compare(oldRaw: Schema, newRaw: Schema, path: string, what: string): void {
    // Recursive types meet the same pair of references again: compare each pair once.
    const key = `${String(oldRaw.$ref)}|${String(newRaw.$ref)}`;
    if (oldRaw.$ref !== undefined && newRaw.$ref !== undefined) {
      if (this.seen.has(key)) return;
      this.seen.add(key);
    }
    const before = deref(oldRaw, this.oldRoot);
    const after = deref(newRaw, this.newRoot);
    if (stable(before) === stable(after)) return;
    if (this.compareVariants(before, after, path, what)) return;
    this.compareTypes(before, after, path, what);
    this.compareEnums(before, after, path, what);
    this.compareBounds(before, after, path, what);
    this.compareObjects(before, after, path, what);
    this.compareArrays(before, after, path, what);
  }

  /** Returns true when either side is a union, which is compared branch by branch. */
  private compareVariants(before: Schema, after: Schema, path: string, what: string): boolean {
    const oldBranches = (before.anyOf ?? before.oneOf) as Schema[] | undefined;
    const newBranches = (after.anyOf ?? after.oneOf) as Schema[] | undefined;
    if (!oldBranches && !newBranches) return false;
    const olds = oldBranches ?? [before];
    const news = newBranches ?? [after];
    for (const old of olds) {
      const label = labelOf(deref(old, this.oldRoot));
      const fits = news.find((candidate) => this.breakingCount(old, candidate) === 0);
      if (fits) continue;
      const closest = news.find((candidate) => sameTypes(deref(candidate, this.newRoot), deref(old, this.oldRoot)));
      if (closest) this.compare(old, closest, path, what);
      else this.add(true, path, `${what}: type narrowed: no longer accepts ${label}`);
    }
    for (const added of news) {
      if (!olds.some((old) => stable(deref(old, this.oldRoot)) === stable(deref(added, this.newRoot)))) {
        if (olds.some((old) => this.breakingCount(old, added) === 0)) continue;
        this.add(false, path, `${what}: now also accepts ${labelOf(deref(added, this.newRoot))}`);
      }
    }
    return true;
  }

  private breakingCount(old: Schema, candidate: Schema): number {
    const probe = new SchemaDiffer(this.oldRoot, this.newRoot);
    probe.compare(old, candidate, "", "");
    return probe.changes.filter((c) => c.breaking).length;
  }

  private compareTypes(before: Schema, after: Schema, path: string, what: string): void {
    const oldTypes = typesOf(before);
    const newTypes = typesOf(after);
    if (!newTypes) {
      if (oldTypes) this.add(false, path, `${what}: type widened from ${[...oldTypes].join(" | ")} to any`);
      return;
    }
    const lost = oldTypes ? [...oldTypes].filter((t) => !typeAccepted(t, newTypes)) : ["any"];
    const gained = [...newTypes].filter((t) => !oldTypes || !typeAccepted(t, oldTypes));
    const from = oldTypes ? [...oldTypes].join(" | ") : "any";
    const to = [...newTypes].join(" | ");
    if (lost.length > 0) this.add(true, path, `${what}: type narrowed from ${from} to ${to}`);
    else if (gained.length > 0) this.add(false, path, `${what}: type widened from ${from} to ${to}`);
  }

  private compareEnums(before: Schema, after: Schema, path: string, what: string): void {
    const oldEnum = Array.isArray(before.enum) ? before.enum : undefined;
    const newEnum = Array.isArray(after.enum) ? after.enum : undefined;
    if (!newEnum) {
      if (oldEnum) this.add(false, path, `${what}: no longer limited to an enum`);
      return;
    }
    if (!oldEnum) {
      this.add(true, path, `${what}: now limited to ${newEnum.map(show).join(", ")}`);
      return;
    }
    const newKeys = new Set(newEnum.map(stable));
    const oldKeys = new Set(oldEnum.map(stable));
    for (const value of oldEnum) {
      if (!newKeys.has(stable(value))) this.add(true, path, `${what}: enum value ${show(value)} removed`);
    }
    for (const value of newEnum) {
      if (!oldKeys.has(stable(value))) this.add(false, path, `${what}: enum value ${show(value)} added`);
    }
  }

  private compareBounds(before: Schema, after: Schema, path: string, what: string): void {
    const bound = (keyword: string, tighter: (o: number, n: number) => boolean) => {
      const o = before[keyword];
      const n = after[keyword];
      if (o === n) return;
      if (typeof n !== "number") {
        this.add(false, path, `${what}: ${keyword} ${show(o)} removed`);
      } else if (typeof o !== "number") {
        this.add(true, path, `${what}: ${keyword} ${n} added`);
      } else {
        const breaking = tighter(o, n);
        this.add(breaking, path, `${what}: ${keyword} ${breaking ? "tightened" : "loosened"} from ${o} to ${n}`);
      }
    };
    for (const keyword of LOWER_BOUNDS) bound(keyword, (o, n) => n > o);
    for (const keyword of UPPER_BOUNDS) bound(keyword, (o, n) => n < o);
    for (const keyword of EXACT_KEYWORDS) {
      const o = before[keyword];
      const n = after[keyword];
      if (stable(o) === stable(n)) continue;
      if (n === undefined || n === false) this.add(false, path, `${what}: ${keyword} ${show(o)} removed`);
      else if (o === undefined) this.add(true, path, `${what}: ${keyword} ${show(n)} added`);
      else this.add(true, path, `${what}: ${keyword} changed from ${show(o)} to ${show(n)}`);
    }
  }

  private compareObjects(before: Schema, after: Schema, path: string, what: string): void {
    const oldProps = asSchema(before.properties) ?? {};
    const newProps = asSchema(after.properties) ?? {};
    const oldRequired = new Set((before.required as string[] | undefined) ?? []);
    const newRequired = new Set((after.required as string[] | undefined) ?? []);
    const closedBefore = before.additionalProperties === false;
    const closedAfter = after.additionalProperties === false;
    const noun = path ? "property" : "parameter";
    for (const [name, oldSchema] of Object.entries(oldProps)) {
      const where = join(path, name);
      const newSchema = asSchema(newProps[name]);
      if (!newSchema) {
        this.add(true, where, `${noun} "${where}" removed`);
        continue;
      }
      if (newRequired.has(name) && !oldRequired.has(name)) {
        this.add(true, where, `${noun} "${where}" is now required`);
      } else if (oldRequired.has(name) && !newRequired.has(name)) {
        this.add(false, where, `${noun} "${where}" is now optional`);
      }
      this.compare(oldSchema as Schema, newSchema, where, `${noun} "${where}"`);
    }
    for (const [name] of Object.entries(newProps)) {
      if (name in oldProps) continue;
      const where = join(path, name);
      if (newRequired.has(name)) this.add(true, where, `new required ${noun} "${where}"`);
      else this.add(false, where, `new optional ${noun} "${where}"`);
    }
    for (const name of newRequired) {
      if (!(name in newProps) && !oldRequired.has(name))
        this.add(true, join(path, name), `new required key "${join(path, name)}"`);
    }
    if (closedAfter && !closedBefore && before.type === "object") {
      this.add(true, path, `${what || "arguments"}: no longer accepts extra keys`);
    } else if (!closedAfter && closedBefore) {
      this.add(false, path, `${what || "arguments"}: now accepts extra keys`);
    }
    const oldExtra = asSchema(before.additionalProperties);
    const newExtra = asSchema(after.additionalProperties);
    if (oldExtra && newExtra) this.compare(oldExtra, newExtra, join(path, "*"), `values of ${what || "arguments"}`);
  }

  private compareArrays(before: Schema, after: Schema, path: string, what: string): void {
    const oldItems = before.items;
    const newItems = after.items;
    if (asSchema(oldItems) && asSchema(newItems)) {
      this.compare(oldItems as Schema, newItems as Schema, join(path, "[]"), `items of ${what}`);
    } else if (Array.isArray(oldItems) && Array.isArray(newItems)) {
      oldItems.forEach((item, i) => {
        const next = newItems[i];
        if (asSchema(next))
          this.compare(item as Schema, next as Schema, join(path, `[${i}]`), `element ${i} of ${what}`);
      });
    }
    const oldPrefix = before.prefixItems as Schema[] | undefined;
    const newPrefix = after.prefixItems as Schema[] | undefined;
    if (oldPrefix && newPrefix) {
      oldPrefix.forEach((item, i) => {
        const next = newPrefix[i];
        if (next) this.compare(item, next, join(path, `[${i}]`), `element ${i} of ${what}`);
      });
    }
  }
}

/**
 * Compares the locked and the current argument schema of one tool. A change is
 * breaking when some arguments object the old schema accepted may be rejected by
 * the new one (a caller built against the old contract would now fail); the rest
 * is additive.
 */
export function diffSchemas(before: JsonSchema, after: JsonSchema): SchemaChange[] {
  const differ = new SchemaDiffer(before as Schema, after as Schema);
  differ.compare(before as Schema, after as Schema, "", "");
  return differ.changes;
}
