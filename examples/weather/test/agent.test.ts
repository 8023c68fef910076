import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Agent } from "toolwright";
import { FakeModel } from "toolwright/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { WeatherDeps } from "../src/agent.js";

const root = fileURLToPath(new URL("..", import.meta.url));
let out: string;
let weatherAgent: (model: FakeModel) => Agent<WeatherDeps>;

beforeAll(async () => {
  // Built for real into a folder of this run's own (git-ignored, so "toolwright" still
  // resolves from the example), never into the shared dist/: two runs at once cannot collide.
  mkdirSync(`${root}.tmp`, { recursive: true });
  out = mkdtempSync(`${root}.tmp/test-build-`);
  execFileSync(`${root}node_modules/.bin/tspc`, ["-p", "tsconfig.build.json", "--outDir", out], {
    cwd: root,
    stdio: "pipe",
  });
  ({ weatherAgent } = await import(`${out}/agent.js`));
});

afterAll(() => {
  rmSync(out, { recursive: true, force: true });
});

describe("the weather agent", () => {
  it("offers the compiled tools sorted by name, with the options override winning over TSDoc", async () => {
    const model = FakeModel.script(["Hi."]);
    await weatherAgent(model).run("hello", { deps: { home: "Paris", alerts: { active: () => [] } } });
    const tools = model.requests[0]?.tools ?? [];
    expect(tools.map((t) => t.name)).toEqual(["current_weather", "getAlerts", "getForecast", "searchCities"]);
    expect(tools[0]?.description).toMatch(/^Current temperature, conditions and wind in a city\./);
    expect(tools[0]?.flags).toEqual({ readOnly: true, openWorld: true });
    // The ToolContext parameter is not in the schema; `city` is optional.
    expect(tools[1]?.parameters).toMatchObject({ properties: { city: { type: "string" } } });
    expect(tools[1]?.parameters.required ?? []).toEqual([]);
  });

  it("runs the calls with a context carrying the run's deps", async () => {
    const asked: string[] = [];
    const deps: WeatherDeps = {
      home: "Tokyo",
      alerts: {
        active: (city) => {
          asked.push(city);
          return city === "Tokyo" ? ["heat advisory"] : [];
        },
      },
    };
    const model = FakeModel.script([
      {
        toolCalls: [
          { name: "current_weather", args: { city: "Tokyo", units: "imperial" } },
          { name: "getAlerts", args: {} },
        ],
      },
      "Tokyo: 69.8 °F and clear, with a heat advisory.",
    ]);
    const result = await weatherAgent(model).run("Weather at home?", { deps });
    const results = model.requests[1]?.messages.filter((m) => m.role === "tool") ?? [];
    expect(JSON.parse(results[0]?.content ?? "{}")).toEqual({
      city: "Tokyo",
      temperature: 69.8,
      conditions: "clear",
      wind: 6,
    });
    expect(JSON.parse(results[1]?.content ?? "{}")).toEqual({ city: "Tokyo", alerts: ["heat advisory"] });
    expect(asked).toEqual(["Tokyo"]);
    expect(result.output).toMatch(/heat advisory/);
  });
});
