/**
 * The malformed calls of `malformed-calls.test.ts`: what a model sent, and the exact
 * feedback it must get back. Each `problems` list is the issue lines of the message; the
 * header, the accepted keys and the closing line are the same for every case.
 */

const deepArray = (levels: number): string => `${"[".repeat(levels)}${"]".repeat(levels)}`;
const deepObject = (levels: number): string => `${'{"a":'.repeat(levels)}1${"}".repeat(levels)}`;
const megabytes = 3_000_000;
const traveller = '[{"name":"Ada","age":36}]';
const valid = `"origin":"SFO","destination":"JFK","date":"2026-12-01","travellers":${traveller}`;

/** A fresh valid call as a caller's object, to break in one place. */
function validObject(): Record<string, unknown> {
  return JSON.parse(`{${valid}}`) as Record<string, unknown>;
}

function revokedProxy(): object {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
}

/** The parameters of the `book_flight` tool every case calls. */
export const parameters = {
  type: "object",
  properties: {
    origin: { type: "string", pattern: "^[A-Z]{3}$", description: "IATA code of the departure airport." },
    destination: { type: "string" },
    date: { type: "string", format: "date" },
    cabin: { enum: ["economy", "business", "first"] },
    passengers: { type: "integer", minimum: 1, maximum: 9 },
    travellers: { type: "array", items: { $ref: "#/$defs/Traveller" }, minItems: 1 },
    refundable: { type: "boolean" },
    notes: { anyOf: [{ type: "string" }, { type: "null" }] },
    metadata: { type: "object", additionalProperties: { type: "string" } },
  },
  required: ["origin", "destination", "date", "travellers"],
  additionalProperties: false,
  $defs: {
    Traveller: {
      type: "object",
      properties: {
        name: { type: "string" },
        age: { type: "integer", minimum: 0 },
        email: { type: "string", format: "email" },
      },
      required: ["name"],
      additionalProperties: false,
    },
  },
};

export interface MalformedCase {
  readonly name: string;
  readonly raw: unknown;
  readonly problems: readonly string[];
}

export const cases: readonly MalformedCase[] = [
  // Broken JSON that cannot be repaired into an object.
  {
    name: "plain prose",
    raw: "book me a flight to JFK",
    problems: [
      'the arguments are not valid JSON and could not be repaired: got "book me a flight to JFK" (a string); send one JSON object',
    ],
  },
  {
    name: "a bare word",
    raw: "hello",
    problems: [
      'the arguments are not valid JSON and could not be repaired: got "hello" (a string); send one JSON object',
    ],
  },
  { name: "a number", raw: "42", problems: ["expected the arguments as a JSON object, got 42 (a number)"] },
  { name: "an array", raw: "[1,2]", problems: ["expected the arguments as a JSON object, got an array of 2 items"] },
  { name: "true", raw: "true", problems: ["expected the arguments as a JSON object, got true (a boolean)"] },
  {
    name: "a JSON string of prose",
    raw: '"not an object"',
    problems: ['expected the arguments as a JSON object, got "not an object" (a string)'],
  },
  {
    name: "a fenced array",
    raw: "```json\n[1]\n```",
    problems: ["expected the arguments as a JSON object, got an array of 1 item"],
  },
  {
    name: "a lone closing brace",
    raw: "}",
    problems: [
      'the arguments are not valid JSON and could not be repaired (Unexpected end of json string at position 1): got "}" (a string); send one JSON object',
    ],
  },
  {
    name: "an object given as a number",
    raw: 7,
    problems: ["expected the arguments as a JSON object, got 7 (a number)"],
  },
  {
    name: "an array given as an object",
    raw: [1, 2],
    problems: ["expected the arguments as a JSON object, got an array of 2 items"],
  },
  // Broken JSON that repairs into an object which is still wrong: the object's problems are reported.
  {
    name: "cut off after the first key",
    raw: '{"origin": "SFO"',
    problems: [
      'missing required key "destination" (string)',
      'missing required key "date" (date string)',
      'missing required key "travellers" (array of object)',
    ],
  },
  {
    name: "single quotes and a missing key",
    raw: "{'origin': 'SFO', 'destination': 'JFK'}",
    problems: ['missing required key "date" (date string)', 'missing required key "travellers" (array of object)'],
  },
  {
    name: "trailing comma and wrong type",
    raw: `{${valid}, "passengers": "two",}`,
    problems: ['/passengers: expected integer, got "two" (a string)'],
  },
  {
    name: "fenced with a wrong enum",
    raw: `\`\`\`json\n{${valid}, "cabin": "coach"}\n\`\`\``,
    problems: ['/cabin: expected one of "economy", "business", "first", got "coach" (a string)'],
  },
  // Empty arguments for a tool with required keys.
  {
    name: "empty string",
    raw: "",
    problems: [
      'missing required key "origin" (string)',
      'missing required key "destination" (string)',
      'missing required key "date" (date string)',
      'missing required key "travellers" (array of object)',
    ],
  },
  {
    name: "null",
    raw: null,
    problems: [
      'missing required key "origin" (string)',
      'missing required key "destination" (string)',
      'missing required key "date" (date string)',
      'missing required key "travellers" (array of object)',
    ],
  },
  {
    name: "an empty object",
    raw: "{}",
    problems: [
      'missing required key "origin" (string)',
      'missing required key "destination" (string)',
      'missing required key "date" (date string)',
      'missing required key "travellers" (array of object)',
    ],
  },
  // Missing keys.
  {
    name: "missing origin",
    raw: '{"destination":"JFK","date":"2026-12-01","travellers":[{"name":"Ada"}]}',
    problems: ['missing required key "origin" (string)'],
  },
  {
    name: "missing travellers",
    raw: '{"origin":"SFO","destination":"JFK","date":"2026-12-01"}',
    problems: ['missing required key "travellers" (array of object)'],
  },
  {
    name: "missing a nested key",
    raw: `{"origin":"SFO","destination":"JFK","date":"2026-12-01","travellers":[{"age":3}]}`,
    problems: ['/travellers/0: missing required key "name" (string)'],
  },
  // Extra keys.
  { name: "one unexpected key", raw: `{${valid},"order":"A-771"}`, problems: ['unexpected key "order"'] },
  {
    name: "a near-miss key name",
    raw: '{"origin":"SFO","destination":"JFK","date":"2026-12-01","traveller":[{"name":"Ada"}]}',
    problems: [
      'unexpected key "traveller" (did you mean "travellers"?)',
      'missing required key "travellers" (array of object)',
    ],
  },
  {
    name: "an unexpected nested key",
    raw: `{${valid.replace(traveller, '[{"name":"Ada","nickname":"A"}]')}}`,
    problems: ['/travellers/0: unexpected key "nickname"; accepted keys in /travellers/0: name, age, email'],
  },
  { name: "camelCase for a snake key", raw: `{${valid},"maxStops":1}`, problems: ['unexpected key "maxStops"'] },
  // Wrong types.
  {
    name: "number for a string",
    raw: `{${valid.replace('"SFO"', "5")}}`,
    problems: ["/origin: expected string, got 5 (a number)"],
  },
  {
    name: "boolean for a string",
    raw: `{${valid.replace('"JFK"', "true")}}`,
    problems: ["/destination: expected string, got true (a boolean)"],
  },
  {
    name: "object for a string",
    raw: `{${valid.replace('"SFO"', '{"code":"SFO"}')}}`,
    problems: ['/origin: expected string, got an object with key "code"'],
  },
  {
    name: "non-numeric string for an integer",
    raw: `{${valid},"passengers":"two"}`,
    problems: ['/passengers: expected integer, got "two" (a string)'],
  },
  {
    name: "fraction for an integer",
    raw: `{${valid},"passengers":1.5}`,
    problems: ["/passengers: expected integer, got 1.5 (a number)"],
  },
  {
    name: "fractional string for an integer",
    raw: `{${valid},"passengers":"1.5"}`,
    problems: ['/passengers: expected integer, got "1.5" (a string)'],
  },
  {
    name: "yes for a boolean",
    raw: `{${valid},"refundable":"yes"}`,
    problems: ['/refundable: expected boolean, got "yes" (a string)'],
  },
  {
    name: "1 for a boolean",
    raw: `{${valid},"refundable":1}`,
    problems: ["/refundable: expected boolean, got 1 (a number)"],
  },
  {
    name: "a string for an array",
    raw: `{${valid.replace(traveller, '"Ada"')}}`,
    problems: ['/travellers: expected array of object, got "Ada" (a string)'],
  },
  {
    name: "an object for an array",
    raw: `{${valid.replace(traveller, '{"name":"Ada"}')}}`,
    problems: ['/travellers: expected array of object, got an object with key "name"'],
  },
  {
    name: "JSON text of the wrong type for an array",
    raw: `{${valid.replace(traveller, '"{\\"name\\":\\"Ada\\"}"')}}`,
    problems: ['/travellers: expected array of object, got "{\\"name\\":\\"Ada\\"}" (a string)'],
  },
  {
    name: "a string item for an object item",
    raw: `{${valid.replace(traveller, '["Ada"]')}}`,
    problems: ['/travellers/0: expected object, got "Ada" (a string)'],
  },
  {
    name: "a boolean for a nullable string",
    raw: `{${valid},"notes":false}`,
    problems: ["/notes: expected string or null, got false (a boolean)"],
  },
  {
    name: "a number in an open record of strings",
    raw: `{${valid},"metadata":{"source":1}}`,
    problems: ["/metadata/source: expected string, got 1 (a number)"],
  },
  {
    name: "null for a required key",
    raw: `{${valid.replace('"SFO"', "null")}}`,
    problems: ["/origin: expected string, got null"],
  },
  // Wrong values.
  {
    name: "an enum value of the wrong case",
    raw: `{${valid},"cabin":"Economy"}`,
    problems: ['/cabin: expected one of "economy", "business", "first", got "Economy" (a string)'],
  },
  {
    name: "a pattern mismatch",
    raw: `{${valid.replace('"SFO"', '"sfo"')}}`,
    problems: ['/origin: must match the pattern ^[A-Z]{3}$, got "sfo" (a string)'],
  },
  {
    name: "a bad date",
    raw: `{${valid.replace('"2026-12-01"', '"next Tuesday"')}}`,
    problems: ['/date: must be a valid date, got "next Tuesday" (a string)'],
  },
  {
    name: "too many passengers",
    raw: `{${valid},"passengers":12}`,
    problems: ["/passengers: must be <= 9, got 12 (a number)"],
  },
  {
    name: "zero passengers as a string",
    raw: `{${valid},"passengers":"0"}`,
    problems: ['/passengers: must be >= 1, got "0" (a string), read as 0 (a number)'],
  },
  {
    name: "no travellers",
    raw: `{${valid.replace(traveller, "[]")}}`,
    problems: ["/travellers: must have at least 1 item, got an array of 0 items"],
  },
  {
    name: "a negative age",
    raw: `{${valid.replace('"age":36', '"age":-1')}}`,
    problems: ["/travellers/0/age: must be >= 0, got -1 (a number)"],
  },
  {
    name: "a bad email",
    raw: `{${valid.replace('"age":36', '"email":"ada at example"')}}`,
    problems: ['/travellers/0/email: must be a valid email, got "ada at example" (a string)'],
  },
  {
    name: "several problems at once",
    raw: '{"origin":"sfo","cabin":"coach","passengers":0,"refundable":"maybe","extra":1}',
    problems: [
      'unexpected key "extra"',
      'missing required key "destination" (string)',
      'missing required key "date" (date string)',
      'missing required key "travellers" (array of object)',
      '/origin: must match the pattern ^[A-Z]{3}$, got "sfo" (a string)',
      '/cabin: expected one of "economy", "business", "first", got "coach" (a string)',
      "/passengers: must be >= 1, got 0 (a number)",
      '/refundable: expected boolean, got "maybe" (a string)',
    ],
  },
  // Prototype keys.
  {
    name: "__proto__ at the top",
    raw: `{${valid},"__proto__":{"polluted":true}}`,
    problems: ['unexpected key "__proto__"'],
  },
  {
    name: "constructor.prototype at the top",
    raw: `{${valid},"constructor":{"prototype":{"polluted":true}}}`,
    problems: ['unexpected key "constructor"'],
  },
  {
    name: "__proto__ in a traveller",
    raw: `{${valid.replace('"age":36', '"__proto__":{"polluted":true}')}}`,
    problems: ['/travellers/0: unexpected key "__proto__"; accepted keys in /travellers/0: name, age, email'],
  },
  {
    name: "__proto__ as the whole arguments",
    raw: '{"__proto__":{"origin":"SFO","destination":"JFK"}}',
    problems: [
      'unexpected key "__proto__"',
      'missing required key "origin" (string)',
      'missing required key "destination" (string)',
      'missing required key "date" (date string)',
      'missing required key "travellers" (array of object)',
    ],
  },
  {
    name: "__proto__ inside a JSON-encoded string",
    raw: `{${valid.replace(traveller, '"[{\\"__proto__\\":{\\"polluted\\":true}}]"')}}`,
    problems: [
      '/travellers/0: unexpected key "__proto__"; accepted keys in /travellers/0: name, age, email',
      '/travellers/0: missing required key "name" (string)',
    ],
  },
  {
    name: "prototype keys in an open record with a wrong value",
    raw: `{${valid},"metadata":{"__proto__":{"polluted":true},"constructor":"x"}}`,
    problems: ['/metadata/__proto__: expected string, got an object with key "polluted"'],
  },
  // Deep nesting.
  {
    name: "arrays 100 deep in a string field",
    raw: `{${valid},"notes":${deepArray(100)}}`,
    problems: [
      "the arguments nest deeper than 64 levels (at /notes/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0)",
    ],
  },
  {
    name: "objects 10,000 deep in the open record",
    raw: `{${valid},"metadata":${deepObject(10_000)}}`,
    problems: [
      "the arguments nest deeper than 64 levels (at /metadata/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a)",
    ],
  },
  {
    name: "the arguments 5,000 deep",
    raw: deepObject(5_000),
    problems: [
      "the arguments nest deeper than 64 levels (at /a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a)",
    ],
  },
  // Several megabytes.
  {
    name: "a 3 MB string in an integer field",
    raw: `{${valid},"passengers":"${"9".repeat(megabytes)}x"}`,
    problems: [
      '/passengers: expected integer, got "9999999999999999999999999999999999999999…" (a string of 3000001 characters)',
    ],
  },
  {
    name: "3 MB of prose",
    raw: "word ".repeat(megabytes / 5),
    problems: [
      'the arguments are not valid JSON and could not be repaired: got "word word word word word word word word …" (a string of 3000000 characters); send one JSON object',
    ],
  },
  {
    name: "3 MB cut off inside a string",
    raw: `{"origin":"${"A".repeat(megabytes)}`,
    problems: [
      'missing required key "destination" (string)',
      'missing required key "date" (date string)',
      'missing required key "travellers" (array of object)',
      '/origin: must match the pattern ^[A-Z]{3}$, got "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA…" (a string of 3000000 characters)',
    ],
  },
  // Past 10,000 values only the first problem is looked for, and nothing is repaired (issue 17, item 10).
  {
    name: "1,000,000 wrong items",
    raw: `{${valid.replace(traveller, `[${"7,".repeat(999_999)}7]`)}}`,
    problems: [
      "/travellers/0: expected object, got 7 (a number)",
      "… checking stopped at this first problem: arguments of more than 10000 values are not checked further or repaired",
    ],
  },
  {
    name: "1,000,000 numeric strings in an open record of strings, one wrong",
    raw: `{${valid},"metadata":{${Array.from({ length: 1_000_000 }, (_, i) => `"k${i}":"${i}"`).join(",")},"last":5}}`,
    problems: [
      "/metadata/last: expected string, got 5 (a number)",
      "… checking stopped at this first problem: arguments of more than 10000 values are not checked further or repaired",
    ],
  },
  {
    name: "150 wrong items: 20 listed, the rest counted",
    raw: `{${valid.replace(traveller, `[${"7,".repeat(149)}7]`)}}`,
    problems: [
      ...Array.from({ length: 20 }, (_, i) => `/travellers/${i}: expected object, got 7 (a number)`),
      "… and 130 more problems like these",
    ],
  },
  // Numbers beyond the double range (issue 17, item 7): JSON.parse reads them as Infinity.
  {
    name: "1e999 for an integer",
    raw: `{${valid},"passengers":1e999}`,
    problems: [
      "/passengers: expected a finite number, got Infinity; send a number between -1.7976931348623157e308 and 1.7976931348623157e308",
    ],
  },
  {
    name: "-1e999 in a nested integer",
    raw: `{${valid.replace('"age":36', '"age":-1e999')}}`,
    problems: [
      "/travellers/0/age: expected a finite number, got -Infinity; send a number between -1.7976931348623157e308 and 1.7976931348623157e308",
    ],
  },
  {
    name: "NaN in a caller's object",
    raw: { ...validObject(), passengers: Number.NaN },
    problems: [
      "/passengers: expected a finite number, got NaN; send a number between -1.7976931348623157e308 and 1.7976931348623157e308",
    ],
  },
  // A caller's object that throws when read (issue 17, item 9).
  {
    name: "a getter that throws",
    raw: Object.defineProperty(validObject(), "cabin", {
      enumerable: true,
      get() {
        throw new Error("boom");
      },
    }),
    problems: [
      '/cabin: the arguments could not be read: reading them threw "Error: boom"; pass plain data (no throwing getters or proxies)',
    ],
  },
  {
    name: "a revoked proxy as a traveller",
    raw: { ...validObject(), travellers: [revokedProxy()] },
    problems: [
      '/travellers/0: the arguments could not be read: reading them threw "TypeError: Cannot perform \'getPrototypeO…" (a message of 75 characters); pass plain data (no throwing getters or proxies)',
    ],
  },
  {
    name: "a proxy whose key listing throws",
    raw: new Proxy(validObject(), {
      ownKeys() {
        throw new RangeError("no keys today");
      },
    }),
    problems: [
      'the arguments could not be read: reading them threw "RangeError: no keys today"; pass plain data (no throwing getters or proxies)',
    ],
  },
  // Keys and values quoted back are cut (issue 17, item 8): a hostile key cannot make the next request large.
  {
    name: "a 20,000-character unexpected key",
    raw: `{${valid},"${"k".repeat(20_000)}":1}`,
    problems: ['unexpected key "kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk…" (a key of 20000 characters)'],
  },
  {
    name: "a 10 MB unexpected key in a traveller",
    raw: `{${valid.replace('"age":36', `"${"é".repeat(10_000_000)}":1`)}}`,
    problems: [
      '/travellers/0: unexpected key "éééééééééééééééééééééééééééééééééééééééé…" (a key of 10000000 characters); accepted keys in /travellers/0: name, age, email',
    ],
  },
  {
    name: "a wrong value under a 20,000-character key of the open record",
    raw: `{${valid},"metadata":{"${"m".repeat(20_000)}":1}}`,
    problems: ["/metadata/mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm…: expected string, got 1 (a number)"],
  },
  {
    name: "an object with a 20,000-character key for a string",
    raw: `{${valid.replace('"JFK"', `{"${"d".repeat(20_000)}":1}`)}}`,
    problems: [
      '/destination: expected string, got an object with key "dddddddddddddddddddddddddddddddddddddddd…" (a key of 20000 characters)',
    ],
  },
];
