import { type ToolContext, tool } from "toolwright";
import { cityNames, type Integer, type Reading, station, temperatureIn, type Units } from "./stations.js";

/**
 * Get the current weather in a city: temperature, conditions and wind.
 * @param city City name, e.g. "Paris" or "San Francisco".
 * @param units Units for temperature and wind.
 * @readOnly
 * @openWorld
 */
export function getWeather(city: string, units: Units = "metric"): Reading {
  const found = station(city);
  if (!found) throw new Error(`no weather station for "${city}"; call searchCities first`);
  return {
    city,
    temperature: temperatureIn(found.celsius, units),
    conditions: found.conditions,
    wind: units === "metric" ? found.windKmh : Math.round(found.windKmh / 1.609),
  };
}

/**
 * Forecast the daily high temperature for the next few days in a city.
 * @param city City name.
 * @param days How many days ahead.
 * @readOnly
 */
export async function getForecast(
  city: string,
  /** @minimum 1 @maximum 7 */ days: Integer,
  ctx: ToolContext,
): Promise<{ day: Integer; high: number }[]> {
  const found = station(city);
  if (!found) throw new Error(`no weather station for "${city}"`);
  ctx.log.info("forecast", { city, days });
  return Array.from({ length: days }, (_, i) => ({ day: (i + 1) as Integer, high: found.celsius + ((i * 3) % 5) }));
}

/** Arguments of {@link searchCities}. */
interface CitySearch {
  /**
   * Part of a city name.
   * @minLength 2
   */
  query: string;
  /** Only cities in this country (ISO 3166-1 alpha-2 code). */
  country?: string;
}

/**
 * Find the cities that have a weather station, to resolve ambiguous names like "Portland".
 * @readOnly
 * @idempotent
 */
export function searchCities({ query, country }: CitySearch): { name: string; country: string }[] {
  return cityNames(query).filter((c) => country === undefined || c.country === country);
}

/** The example's tools, each with the schema the compiler derived. */
export const weatherTools = [tool(getWeather), tool(getForecast), tool(searchCities)];
