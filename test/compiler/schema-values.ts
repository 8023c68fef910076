import fc from "fast-check";

type Schema = Readonly<Record<string, unknown>> | boolean;

/** Values that are wrong for most schemas: other JSON types, non-finite numbers, odd keys. */
const noise: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom(Number.POSITIVE_INFINITY, Number.NaN, -0, 1e21, 0.1, "", "2024-02-30T25:61:00Z"),
);

function own(record: Record<string, unknown>, key: string, value: unknown): Record<string, unknown> {
  // defineProperty, so that `__proto__` stays an ordinary key as JSON.parse makes it.
  Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
  return record;
}

/** Strings matching `pattern`; for the lookaheads fast-check cannot generate from, strings built from its literal text. */
function matching(pattern: string): fc.Arbitrary<string> {
  try {
    return fc.stringMatching(new RegExp(pattern, "u"));
  } catch {
    const pieces = pattern
      .replace(/\\[sSdD]|[\^$()[\]{}*+?|\\!]|:|=/g, " ")
      .split(" ")
      .filter(Boolean);
    return fc
      .array(fc.oneof(fc.constantFrom(...pieces, " ", "1", ""), fc.string({ maxLength: 3 })), { maxLength: 5 })
      .map((parts) => parts.join(""));
  }
}

function stringValues(schema: Readonly<Record<string, unknown>>): fc.Arbitrary<unknown> {
  const minLength = typeof schema.minLength === "number" ? schema.minLength : 0;
  const maxLength = typeof schema.maxLength === "number" ? schema.maxLength : Math.max(minLength + 4, 8);
  const options: fc.Arbitrary<unknown>[] = [
    // Whole code points, surrogate pairs included: JSON Schema counts lengths in code points.
    fc.string({ unit: "binary", minLength: Math.max(0, minLength - 1), maxLength: maxLength + 1 }),
    fc.string({ minLength: Math.max(0, minLength - 1), maxLength: maxLength + 1 }),
  ];
  if (typeof schema.pattern === "string") options.push(matching(schema.pattern));
  if (schema.format === "date-time")
    options.push(
      fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
      fc.date({ noInvalidDate: true }).map((d) => d.toISOString().replace("T", " ").replace("Z", "+01:00")),
    );
  if (schema.format === "email") options.push(fc.emailAddress());
  if (schema.format === "uuid")
    options.push(
      fc.uuid(),
      fc.uuid().map((u) => `urn:uuid:${u.toUpperCase()}`),
    );
  if (schema.format === "date") options.push(fc.date({ noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)));
  if (schema.format === "time") options.push(fc.date({ noInvalidDate: true }).map((d) => d.toISOString().slice(11)));
  if (schema.format === "uri" || schema.format === "url") options.push(fc.webUrl());
  if (schema.format === "hostname") options.push(fc.domain());
  if (schema.format === "ipv4") options.push(fc.ipV4(), fc.ipV4Extended());
  if (schema.format === "ipv6") options.push(fc.ipV6());
  if (schema.format === "duration") options.push(fc.constantFrom("PT5M", "P1D", "P1Y2M3DT4H", "P2W", "PT", "P1DT"));
  return fc.oneof(...options);
}

function numberValues(schema: Readonly<Record<string, unknown>>, integer: boolean): fc.Arbitrary<unknown> {
  const bound = (key: string): number | undefined =>
    typeof schema[key] === "number" ? (schema[key] as number) : undefined;
  const min = bound("minimum") ?? bound("exclusiveMinimum");
  const max = bound("maximum") ?? bound("exclusiveMaximum");
  const near = fc.integer({ min: Math.floor((min ?? -50) - 2), max: Math.ceil((max ?? 50) + 2) });
  const step = bound("multipleOf");
  return fc.oneof(
    near,
    step === undefined ? near.map((n) => n + 0.5) : near.map((n) => n * step),
    integer ? near : fc.double({ noNaN: true, min: (min ?? -1e6) - 1, max: (max ?? 1e6) + 1 }),
  );
}

/**
 * Values aimed at `schema`: mostly shaped like what it accepts (so the accepting paths of a
 * validator run too), with wrong types, missing and extra keys and boundary values mixed in.
 */
export function valuesFor(schema: Schema, root: Readonly<Record<string, unknown>>, depth = 0): fc.Arbitrary<unknown> {
  if (typeof schema === "boolean" || depth > 6) return noise;
  const aimed = aimedValues(schema, root, depth);
  return aimed ? fc.oneof({ weight: 5, arbitrary: aimed }, { weight: 1, arbitrary: noise }) : noise;
}

function aimedValues(
  schema: Readonly<Record<string, unknown>>,
  root: Readonly<Record<string, unknown>>,
  depth: number,
): fc.Arbitrary<unknown> | undefined {
  const next = (s: unknown) => valuesFor(s as Schema, root, depth + 1);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  if ("const" in schema) return fc.constant(schema.const);
  if (typeof schema.$ref === "string") {
    const name = schema.$ref.replace("#/$defs/", "");
    const target = schema.$ref === "#" ? root : (root.$defs as Record<string, Schema> | undefined)?.[name];
    return target === undefined ? undefined : next(target);
  }
  for (const keyword of ["anyOf", "oneOf"]) {
    if (Array.isArray(schema[keyword])) return fc.oneof(...(schema[keyword] as unknown[]).map(next));
  }
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string | undefined];
  return fc.oneof(...types.map((type) => typed(schema, type, next)));
}

function typed(
  schema: Readonly<Record<string, unknown>>,
  type: string | undefined,
  next: (s: unknown) => fc.Arbitrary<unknown>,
): fc.Arbitrary<unknown> {
  switch (type) {
    case "string":
      return stringValues(schema);
    case "number":
    case "integer":
      return numberValues(schema, type === "integer");
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    case "array": {
      const prefix = Array.isArray(schema.prefixItems) ? (schema.prefixItems as unknown[]).map(next) : [];
      const rest = schema.items === undefined || schema.items === false ? noise : next(schema.items);
      const maxLength = typeof schema.maxItems === "number" ? schema.maxItems + 1 : 4;
      return fc
        .tuple(fc.tuple(...prefix), fc.array(rest, { maxLength }), fc.nat({ max: prefix.length }))
        .map(([head, tail, cut]) => (cut < prefix.length ? head.slice(0, cut) : [...head, ...tail]));
    }
    case "object": {
      const properties = (schema.properties ?? {}) as Record<string, unknown>;
      const keys = Object.keys(properties);
      const required = new Set((schema.required ?? []) as string[]);
      const extraKeys = fc.oneof(
        fc.constantFrom("extra", "constructor", "__proto__", ...keys),
        ...Object.keys((schema.patternProperties ?? {}) as object).map((p) => fc.stringMatching(new RegExp(p, "u"))),
      );
      const extraValue =
        schema.additionalProperties && schema.additionalProperties !== true ? next(schema.additionalProperties) : noise;
      return fc
        .tuple(
          fc.tuple(
            ...keys.map((key) =>
              fc.option(next(properties[key]), { freq: required.has(key) ? 12 : 2, nil: undefined }),
            ),
          ),
          fc.array(fc.tuple(extraKeys, extraValue), { maxLength: 2 }),
        )
        .map(([values, extras]) => {
          const out: Record<string, unknown> = {};
          keys.forEach((key, i) => {
            if (values[i] !== undefined) own(out, key, values[i]);
          });
          for (const [key, value] of extras) own(out, key, value);
          return out;
        });
    }
    default:
      return noise;
  }
}
