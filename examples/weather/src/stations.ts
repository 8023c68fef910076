/** Units the tools answer in. */
export type Units = "metric" | "imperial";

/** A whole number. */
export type Integer = number & { readonly __brand: "integer" };

/** What a weather station last reported. */
export interface Reading {
  /** City the station is in. */
  city: string;
  /** Air temperature in the requested units. */
  temperature: number;
  /** Short text such as "light rain". */
  conditions: string;
  /** Wind speed, km/h (metric) or mph (imperial). */
  wind: number;
}

/** Offline station data, so the demo and tests need no network or key. */
const STATIONS: Readonly<Record<string, { celsius: number; conditions: string; windKmh: number; country: string }>> = {
  paris: { celsius: 14, conditions: "light rain", windKmh: 18, country: "FR" },
  "san francisco": { celsius: 17, conditions: "fog", windKmh: 22, country: "US" },
  tokyo: { celsius: 21, conditions: "clear", windKmh: 9, country: "JP" },
  portland: { celsius: 11, conditions: "overcast", windKmh: 12, country: "US" },
  "portland, me": { celsius: 6, conditions: "snow showers", windKmh: 30, country: "US" },
};

/** Looks a city up case-insensitively; undefined when no station covers it. */
export function station(city: string) {
  return STATIONS[city.trim().toLowerCase()];
}

/** City names whose key contains the query. */
export function cityNames(query: string): { name: string; country: string }[] {
  const q = query.trim().toLowerCase();
  return Object.entries(STATIONS)
    .filter(([name]) => name.includes(q))
    .map(([name, s]) => ({ name, country: s.country }));
}

/** Celsius or Fahrenheit, rounded to one decimal. */
export function temperatureIn(celsius: number, units: Units): number {
  return units === "metric" ? celsius : Math.round(((celsius * 9) / 5 + 32) * 10) / 10;
}
