/**
 * Smoke test of the benchmark harness at a tiny size: the generated tools really are
 * equivalent across systems (toolwright's compiled schema is the generator's JSON Schema;
 * every system accepts each shape's valid arguments and rejects its invalid ones). The timed
 * benchmarks run with `npm run bench`.
 */

import { pathToFileURL } from "node:url";
import { isDeepStrictEqual } from "node:util";
import { asSchema } from "ai";
import { Ajv } from "ajv";
import { validateArguments } from "toolwright";
import { beforeAll, describe, expect, it } from "vitest";
import { jsonSchema } from "../generate/emit.mjs";
import { SHAPES, shapeOf, toolName } from "../generate/shapes.mjs";
import { prepareProject } from "../lib/prepare.mjs";

const N = SHAPES.length;
const load = async (file) => import(pathToFileURL(file).href);

describe("benchmark harness (tiny sizes)", () => {
  let project;
  // Writes the project and compiles it with both transformers (tspc), as the benchmarks do.
  beforeAll(() => {
    project = prepareProject(N);
  });

  it("compiles each generated function into a tool whose schema is the generator's JSON Schema", async () => {
    const { tools } = await load(project.toolwrightOut);
    expect(tools.map((t) => t.name)).toEqual(SHAPES.map((_, i) => toolName(i)));
    for (let i = 0; i < N; i++) expect(isDeepStrictEqual(tools[i].parameters, jsonSchema(i))).toBe(true);
  });

  it("has every system accept the valid and reject the invalid arguments of every shape", async () => {
    const { tools } = await load(project.toolwrightOut);
    const { validators } = await load(project.typiaOut);
    const { schemas: zodSchemas } = await load(project.zod);
    const { tools: aiTools } = await load(project.ai);
    const { schemas } = await load(project.jsonSchemas);
    const ajv = new Ajv({ allErrors: true });
    for (let i = 0; i < N; i++) {
      const ajvCheck = ajv.compile(schemas[i]);
      for (const [sample, expected] of [
        [shapeOf(i).valid, true],
        [shapeOf(i).invalid, false],
      ]) {
        expect(validateArguments(tools[i], sample).ok).toBe(expected);
        expect(ajvCheck(sample)).toBe(expected);
        expect(validators[i](sample).success).toBe(expected);
        expect(zodSchemas[i].safeParse(sample).success).toBe(expected);
        expect((await asSchema(aiTools[i].inputSchema).validate(sample)).success).toBe(expected);
      }
    }
  });
});
