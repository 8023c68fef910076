/**
 * The parameter shapes every benchmarked system gets, written once as data. Tool `i` uses
 * shape `i % SHAPES.length`; its nested types get the suffix `i`, so 200 tools are 200
 * distinct types for the compilers, exactly as 200 hand-written tools would be.
 *
 * A field type is one of:
 *   "string" | "number" | "boolean"
 *   { enum: string[] }             a string literal union
 *   { array: Type }                an array
 *   { object: Field[] }            a closed object (an interface in TypeScript)
 *   { nullable: Type }             `T | null`
 * A field is { name, type, optional?, doc }.
 */

/** @typedef {"string" | "number" | "boolean" | { enum: string[] } | { array: FieldType } | { object: Field[], name: string } | { nullable: FieldType }} FieldType */
/** @typedef {{ name: string, type: FieldType, optional?: boolean, doc: string }} Field */
/** @typedef {{ fn: string, summary: string, params: Field[], valid: Record<string, unknown>, invalid: Record<string, unknown> }} Shape */

/** @type {Shape[]} */
export const SHAPES = [
  {
    fn: "getForecast",
    summary: "Get the weather forecast for a city over the next days.",
    params: [
      { name: "city", type: "string", doc: 'City name, e.g. "Paris".' },
      { name: "units", type: { enum: ["metric", "imperial"] }, doc: "Unit system of the temperatures." },
      { name: "days", type: "number", optional: true, doc: "How many days to forecast." },
    ],
    valid: { city: "Paris", units: "metric", days: 3 },
    invalid: { city: 42, units: "kelvin" },
  },
  {
    fn: "searchFlights",
    summary: "Search for available flights between two airports.",
    params: [
      { name: "origin", type: "string", doc: 'IATA code of the departure airport, e.g. "SFO".' },
      { name: "destination", type: "string", doc: 'IATA code of the arrival airport, e.g. "JFK".' },
      { name: "cabin", type: { enum: ["economy", "business", "first"] }, doc: "Preferred cabin class." },
      { name: "refundable", type: "boolean", doc: "Only show refundable fares." },
      { name: "maxStops", type: "number", optional: true, doc: "Maximum number of layovers to allow." },
    ],
    valid: { origin: "SFO", destination: "JFK", cabin: "business", refundable: false, maxStops: 1 },
    invalid: { origin: "SFO", cabin: "premium", refundable: "maybe" },
  },
  {
    fn: "quoteShipping",
    summary: "Quote the cost of shipping a parcel to an address.",
    params: [
      {
        name: "to",
        type: {
          name: "Address",
          object: [
            { name: "street", type: "string", doc: "Street and number." },
            { name: "city", type: "string", doc: "City name." },
            { name: "zip", type: "string", optional: true, doc: "Postal code, if known." },
          ],
        },
        doc: "Where the parcel goes.",
      },
      { name: "weightKg", type: "number", doc: "Weight of the parcel in kilograms." },
      { name: "express", type: "boolean", optional: true, doc: "Ship with the express service." },
    ],
    valid: { to: { street: "1 Main St", city: "Springfield", zip: "12345" }, weightKg: 2.5, express: true },
    invalid: { to: { street: "1 Main St", zip: 12345 }, weightKg: "heavy" },
  },
  {
    fn: "placeOrder",
    summary: "Place an order for a list of catalogue items.",
    params: [
      {
        name: "items",
        type: {
          array: {
            name: "OrderLine",
            object: [
              { name: "sku", type: "string", doc: "Catalogue number of the item." },
              { name: "quantity", type: "number", doc: "How many to order." },
            ],
          },
        },
        doc: "The order lines.",
      },
      { name: "note", type: { nullable: "string" }, doc: "A note for the warehouse, or null." },
      { name: "coupon", type: "string", optional: true, doc: "A discount code, if any." },
    ],
    valid: {
      items: [
        { sku: "A-1", quantity: 2 },
        { sku: "B-7", quantity: 1 },
      ],
      note: null,
      coupon: "SPRING",
    },
    invalid: { items: [{ sku: "A-1", quantity: "two" }, { quantity: 1 }], note: 5 },
  },
  {
    fn: "tagTicket",
    summary: "Tag a support ticket and set its priority.",
    params: [
      { name: "ticketId", type: "string", doc: "Identifier of the ticket." },
      { name: "tags", type: { array: "string" }, doc: "Tags to add to the ticket." },
      { name: "priority", type: { enum: ["low", "normal", "high"] }, doc: "The new priority." },
      {
        name: "meta",
        type: {
          name: "TicketMeta",
          object: [
            { name: "source", type: "string", doc: "Where the request came from." },
            { name: "score", type: "number", doc: "Confidence of the triage, 0 to 1." },
          ],
        },
        optional: true,
        doc: "Triage details, if any.",
      },
    ],
    valid: { ticketId: "T-1009", tags: ["billing", "urgent"], priority: "high", meta: { source: "email", score: 0.9 } },
    invalid: { ticketId: "T-1009", tags: "billing", priority: "urgent", extra: true },
  },
];

/** The shape of tool `i`. */
export function shapeOf(i) {
  return SHAPES[i % SHAPES.length];
}

/** The function (and tool) name of tool `i`, e.g. `searchFlights7`. */
export function toolName(i) {
  return `${shapeOf(i).fn}${i}`;
}
