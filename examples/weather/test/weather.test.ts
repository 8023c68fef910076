import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("..", import.meta.url));

describe("examples/weather", () => {
  it("builds with tspc and the demo prints each tool's name, description and schema", () => {
    // A build folder of this run's own (git-ignored, so "toolwright" still resolves from the
    // example), never the shared dist/: two runs at once cannot collide.
    mkdirSync(`${root}.tmp`, { recursive: true });
    const out = mkdtempSync(`${root}.tmp/test-build-`);
    let output: string;
    try {
      execFileSync(`${root}node_modules/.bin/tspc`, ["-p", "tsconfig.build.json", "--outDir", out], {
        cwd: root,
        stdio: "pipe",
      });
      output = execFileSync(process.execPath, [`${out}/demo.js`], { cwd: root, encoding: "utf8" });
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
    const sections = output.trim().split(/\n\n(?=# )/);
    expect(sections.map((s) => s.split("\n")[0])).toEqual(["# getWeather", "# getForecast", "# searchCities"]);
    expect(output).toContain("Get the current weather in a city: temperature, conditions and wind.");
    const forecast = JSON.parse(sections[1]?.split("\n").slice(3).join("\n") ?? "{}");
    expect(forecast).toEqual({
      type: "object",
      properties: {
        city: { type: "string", description: "City name." },
        days: { type: "integer", description: "How many days ahead.", minimum: 1, maximum: 7 },
      },
      required: ["city", "days"],
      additionalProperties: false,
    });
    const search = JSON.parse(sections[2]?.split("\n").slice(3).join("\n") ?? "{}");
    expect(search.properties.query).toEqual({ type: "string", description: "Part of a city name.", minLength: 2 });
    expect(search.required).toEqual(["query"]);
  });
});
