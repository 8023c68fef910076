import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { specsIn } from "./compile-fixtures.js";
import { TempProject } from "./project.js";

const TYPES = (doc: string) => `export interface Query {
  /** ${doc} */
  city: string;
}
`;

const TOOLS = `import { tool } from "toolwright";
import type { Query } from "./types.js";

/**
 * Get the current weather in a city.
 * @readOnly
 */
function getWeather(query: Query): string {
  return \`sunny in \${query.city}\`;
}

export const weather = tool(getWeather);
console.log(JSON.stringify({ name: weather.name, parameters: weather.parameters, flags: weather.flags }));
`;

const projects: TempProject[] = [];
afterAll(() => {
  for (const project of projects) project.remove();
});

function tempProject(...args: ConstructorParameters<typeof TempProject>): TempProject {
  const made = new TempProject(...args);
  projects.push(made);
  return made;
}

describe("the tspc CLI with the transformer", () => {
  it("emits specs that the runtime uses, and re-derives them when a TSDoc comment in another file changes (--incremental)", () => {
    const project = tempProject("incremental", {}, { incremental: true });
    project.write("src/types.ts", TYPES("City name."));
    project.write("src/tools.ts", TOOLS);
    const first = project.build();
    expect(first).toEqual({ status: 0, output: "" });
    const printed = JSON.parse(project.run("dist/tools.js"));
    expect(printed).toEqual({
      name: "getWeather",
      flags: { readOnly: true },
      parameters: {
        type: "object",
        properties: {
          query: {
            type: "object",
            properties: { city: { type: "string", description: "City name." } },
            required: ["city"],
            additionalProperties: false,
          },
        },
        required: ["query"],
        additionalProperties: false,
      },
    });

    project.write("src/types.ts", TYPES("City name, e.g. Paris."));
    expect(project.build().status).toBe(0);
    const [spec] = specsIn(readFileSync(path.join(project.dir, "dist/tools.js"), "utf8")) as {
      parameters: { properties: { query: { properties: { city: { description: string } } } } };
    }[];
    expect(spec?.parameters.properties.query.properties.city.description).toBe("City name, e.g. Paris.");
  });

  it("fails the build with the diagnostic's file, line, code and fix", () => {
    const project = tempProject("failing", { minDescriptionLength: 20 });
    project.write(
      "src/tools.ts",
      `import { tool } from "toolwright";

/** Short text. */
function later(callback: () => void): void {
  callback();
}

export const delayed = tool(later);
`,
    );
    const result = project.build();
    expect(result.status).not.toBe(0);
    expect(result.output).toContain(
      'src/tools.ts(4,16): error TS990001: TW990001: tool "later": `callback` is the function type `() => void`, which JSON cannot carry. Fix:',
    );
    expect(result.output).toContain(
      'src/tools.ts(8,24): error TS990005: TW990005: tool "later" has a description of 11 characters (the minimum is 20).',
    );
    // The site with errors carries no spec, only the build's verdict: running it throws
    // "rejected by the build" instead of using a wrong schema.
    const emitted = readFileSync(path.join(project.dir, "dist/tools.js"), "utf8");
    expect(emitted).not.toContain('"$toolwright":');
    expect(emitted).toContain('{"$toolwrightRejected":1,"errors":["src/tools.ts:4:16: TW990001:');
  });

  it("without the transformer, tool() throws at once naming the tool, its file and the fix", () => {
    const project = tempProject("untransformed", {}, { plugins: [] });
    project.write(
      "src/tools.ts",
      TOOLS.replace('import type { Query } from "./types.js";', "type Query = { city: string };"),
    );
    expect(project.build().status).toBe(0);
    let message = "";
    try {
      project.run("dist/tools.js");
    } catch (error) {
      message = String((error as { stderr: string }).stderr);
    }
    expect(message).toContain('tool "getWeather"');
    expect(message).toContain("dist/tools.js");
    expect(message).toContain('{ "transform": "@toolwright/compiler/transform" }');
  });
});
