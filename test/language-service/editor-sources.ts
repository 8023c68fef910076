import type { JsonSchema } from "toolwright";

// The fixture project both editor integrations are driven on: the tsserver plugin
// (plugin.test.ts) and `toolwright lsp` (test/lsp/), so both are held to the same answers.

export const TYPES = `/** A time slot. */
export interface Slot {
  /** Start time, ISO 8601. */
  start: string;
}
`;

export const FUNCTIONS = `/**
 * Count the entries of a lookup table.
 * @param table The table to count.
 */
export function countEntries(table: Map<string, number>): number {
  return table.size;
}
`;

export const TOOLS = `import { Agent, type Model, tool } from "toolwright";
import { countEntries } from "./functions.js";
import type { Slot } from "./types.js";

declare const model: Model;

/**
 * Search for available flights between two airports.
 * @param origin IATA code of the departure airport.
 * @readOnly
 */
function searchFlights(origin: string, destination: string, maxStops = 1): string {
  const route = origin + destination;
  return route + maxStops;
}

/**
 * Book a meeting room for a time slot.
 * @param slot When the meeting is.
 */
function bookRoom(slot: Slot): string {
  return slot.start;
}

/**
 * Get the current time in a time zone.
 * @param zone IANA time zone, e.g. "Europe/Paris".
 */
function currentTime(zone: string): string {
  return zone;
}

export const flights = tool(searchFlights);
export const rooms = tool(bookRoom);
export const counter = tool(countEntries);
export const agent = new Agent({ name: "helper", model, instructions: "Help.", tools: [currentTime] });
agent.tool(currentTime, { name: "clock", idempotent: true });

export class Shop {
  /**
   * Remove a product from the catalogue for good.
   * @param sku Stock keeping unit.
   */
  @tool({ name: "remove_product", destructive: true })
  removeProduct(sku: string): boolean {
    return sku.length > 0;
  }
}
`;

/** A tool whose `days` parameter has no annotation: TW990002 under requireAnnotations, and the annotation fix. */
export const WEATHER = `import { tool } from "toolwright";

/**
 * Get the weather forecast for a city over the next days.
 * @param city City name, e.g. "Paris".
 * @param days How many days to forecast.
 */
function forecast(city: string, days = 3): string {
  return city.repeat(days);
}

export const weather = tool(forecast);
`;

/** The parameters' canonical JSON Schema the build derives for `searchFlights` in {@link TOOLS}. */
export const SEARCH_FLIGHTS: JsonSchema = {
  type: "object",
  properties: {
    origin: { type: "string", description: "IATA code of the departure airport." },
    destination: { type: "string" },
    maxStops: { type: "number", default: 1 },
  },
  required: ["origin", "destination"],
  additionalProperties: false,
};

/** A tool made from a named function expression written inline: its name shows the tool on hover. */
export const PLANNER = `import { tool } from "toolwright";

/** Plan the visits of a sales rep in a city, the busiest districts first. */
export const planner = tool(function plan_visits(city: string, days: number): string {
  return city.repeat(days);
});
`;

/**
 * Tools with no description (TW990005), each documented in another place, and one whose
 * empty description is tool()'s option: the summary quick fix writes a stub in the first
 * five ({@link SUMMARY_FIXES}) and none for the last.
 */
export const SUMMARIES = `import { tool } from "toolwright";

/**
 * @param city City name.
 * @readOnly
 */
function forecast(city: string): string {
  return city;
}

/** @idempotent */
function ping(host: string): string {
  return host;
}

export function echo(text: string): string {
  return text;
}

export const weather = tool(forecast);
export const pinger = tool(ping);
export const echoer = tool(echo);
export const visits = tool(function plan_visits(city: string): string {
  return city;
});
export const tools = [tool((zone: string) => zone, { name: "clock" })];
export const terse = tool(echo, { name: "terse", description: "" });
`;

const STUB = "TODO: say what this tool does and when the model should use it.";

/** Where each TW990005 of {@link SUMMARIES} is reported, and what its quick fix writes there. */
export const SUMMARY_FIXES: readonly { readonly at: string; readonly fixed: string | undefined }[] = [
  { at: "tool(forecast)", fixed: `/**\n * ${STUB}\n * @param city City name.\n * @readOnly\n */\nfunction forecast(` },
  { at: "tool(ping)", fixed: `/**\n * ${STUB}\n * @idempotent */\nfunction ping(` },
  { at: "tool(echo)", fixed: `}\n\n/**\n * ${STUB}\n */\nexport function echo(` },
  { at: "tool(function", fixed: `/**\n * ${STUB}\n */\nexport const visits = tool(function plan_visits(` },
  { at: "tool((zone", fixed: `[tool(/** ${STUB} */ (zone: string) => zone,` },
  // An empty description passed to tool() is not the TSDoc's to fix.
  { at: "tool(echo, { name", fixed: undefined },
];
