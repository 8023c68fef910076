import { Agent, type Model, type ToolContext } from "toolwright";
import { getForecast, getWeather, searchCities } from "./tools.js";

/** What the weather agent's tools get at run time, through `run(input, { deps })`. */
export interface WeatherDeps {
  /** The user's home city, used when they do not name one. */
  readonly home: string;
  /** The alert feed of the user's weather service. */
  readonly alerts: { active(city: string): string[] };
}

/**
 * List the weather alerts in force for a city, such as storm or heat warnings.
 * @param city City name; the user's home city when left out.
 * @readOnly
 */
export function getAlerts(ctx: ToolContext<WeatherDeps>, city?: string): { city: string; alerts: string[] } {
  // The context comes first so that `city` can be optional: a ToolContext may sit anywhere.
  const where = city ?? ctx.deps.home;
  return { city: where, alerts: ctx.deps.alerts.active(where) };
}

/**
 * The weather agent: the example's tools plus an alert tool reading its deps, and
 * `getWeather` registered with options that override what its TSDoc says.
 */
export function weatherAgent(model: Model | string): Agent<WeatherDeps> {
  const agent = new Agent<WeatherDeps>({
    name: "weather",
    model,
    instructions: "Answer weather questions briefly. Use the user's home city when they name none.",
    tools: [getForecast, searchCities, getAlerts],
  });
  agent.tool(getWeather, {
    name: "current_weather",
    description: "Current temperature, conditions and wind in a city. Prefer this over the forecast for 'now'.",
    timeoutMs: 2_000,
  });
  return agent;
}
