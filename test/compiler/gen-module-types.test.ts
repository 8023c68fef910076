import { execFile } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import fc from "fast-check";
import type { GeneratedSpecEntry, ToolSpec } from "toolwright";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderGenModule } from "../../packages/compiler/src/cli/gen-module.js";
import { RENDERING_STAND_IN } from "../../packages/compiler/src/cli/rendered-module.js";
import { validatorSource } from "../../packages/compiler/src/validator/validator-source.js";
import { removeTempProject, tempProject } from "../../packages/compiler/test/temp-project.js";
import { validatorHelpers } from "../../packages/runtime/src/validation/generated-helpers.js";
import { TS5, TS7 } from "../ts7/project.js";
import { FIXTURES, fixtureCases, fixtureSamples } from "./compile-fixtures.js";
import { valuesFor } from "./schema-values.js";

// Issue 28 item 7: the module `toolwright gen` writes is TypeScript that strict checking
// accepts, on TypeScript 5.9 and 7, with no `// @ts-nocheck`: one module per fixture (every
// schema the fixtures make), checked with strict and the stricter options projects turn on.
// Its validators are the JavaScript ones with annotations: same verdicts on every schema.

const run = promisify(execFile);
const cases = fixtureCases().filter((name) => !name.startsWith("err-"));
let root: string;

function specsOf(name: string): ToolSpec[] {
  return (JSON.parse(readFileSync(path.join(FIXTURES, name, "expected.json"), "utf8")) as { specs: ToolSpec[] }).specs;
}

const entriesOf = (name: string): GeneratedSpecEntry[] => specsOf(name).map((spec) => ({ fn: spec.name, spec }));

const STRICTEST = {
  target: "ES2022",
  module: "NodeNext",
  moduleResolution: "NodeNext",
  strict: true,
  noEmit: true,
  types: [],
  skipLibCheck: true,
  noUnusedLocals: true,
  noUnusedParameters: true,
  noImplicitReturns: true,
  noFallthroughCasesInSwitch: true,
  noUncheckedIndexedAccess: true,
  exactOptionalPropertyTypes: true,
  noPropertyAccessFromIndexSignature: true,
  allowUnreachableCode: false,
  verbatimModuleSyntax: true,
  isolatedModules: true,
};

/** `tsc -p` of the temp project with the TypeScript package in `typescript`: its exit code and output. */
async function check(typescript: string, tsconfig: string): Promise<{ code: number; output: string }> {
  try {
    const { stdout } = await run(process.execPath, [path.join(typescript, "bin", "tsc"), "-p", tsconfig], {
      cwd: root,
    });
    return { code: 0, output: stdout };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string };
    return { code: failed.code ?? -1, output: failed.stdout ?? "" };
  }
}

beforeAll(() => {
  root = tempProject("gen-types");
  writeFileSync(path.join(root, "package.json"), JSON.stringify({ type: "module", private: true }));
  mkdirSync(path.join(root, "gen"));
  mkdirSync(path.join(root, "untyped"));
  for (const name of cases) {
    writeFileSync(path.join(root, "gen", `${name}.ts`), renderGenModule(entriesOf(name)));
    // The same module as JavaScript, named .ts: what strict checking refused before.
    writeFileSync(path.join(root, "untyped", `${name}.ts`), renderGenModule(entriesOf(name), { typescript: false }));
  }
  for (const folder of ["gen", "untyped"]) {
    const config = { compilerOptions: STRICTEST, include: [`${folder}/*.ts`] };
    writeFileSync(path.join(root, `tsconfig.${folder}.json`), JSON.stringify(config));
  }
});

afterAll(() => removeTempProject(root));

describe("the module toolwright gen writes", () => {
  it("has no @ts-nocheck and type-checks under strict TypeScript 5.9 and 7, stricter options too", async () => {
    expect(cases.length).toBeGreaterThan(70);
    for (const name of cases) expect(readFileSync(path.join(root, "gen", `${name}.ts`), "utf8")).not.toContain("@ts-");
    for (const typescript of [TS5, TS7]) {
      expect(await check(typescript, "tsconfig.gen.json")).toEqual({ code: 0, output: "" });
      // The check is real: the untyped validators fail it.
      const untyped = await check(typescript, "tsconfig.untyped.json");
      expect(untyped.code).not.toBe(0);
      expect(untyped.output).toMatch(/error TS7006: Parameter 'v' implicitly has an 'any' type/);
    }
  }, 300_000);

  it("references toolwright alone, exports nothing and declares no globals: what its stand-in for TypeScript 7's API says", () => {
    // What a module shows other files: the modules it references, the names it exports, its globals.
    const shown = (text: string) => {
      const file = ts.createSourceFile("module.ts", text, ts.ScriptTarget.ES2022, true);
      const references = new Set<string>();
      let exported = 0;
      let globals = 0;
      const visit = (node: ts.Node): void => {
        if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
          references.add((node.moduleSpecifier as ts.StringLiteral).text);
        }
        if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword)
          references.add("import()");
        if (ts.isExportDeclaration(node) && node.exportClause && ts.isNamedExports(node.exportClause)) {
          exported += node.exportClause.elements.length;
        }
        if (ts.isExportAssignment(node)) exported++;
        if (ts.canHaveModifiers(node) && ts.getModifiers(node)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) {
          exported++;
        }
        if (ts.isModuleDeclaration(node)) globals++;
        ts.forEachChild(node, visit);
      };
      visit(file);
      return { references: [...references].sort(), exported, globals, module: ts.isExternalModule(file) };
    };
    const standIn = shown(RENDERING_STAND_IN);
    expect(standIn).toEqual({ references: ["toolwright"], exported: 0, globals: 0, module: true });
    expect(shown(renderGenModule([]))).toEqual(standIn);
    for (const name of cases) {
      expect(shown(readFileSync(path.join(root, "gen", `${name}.ts`), "utf8"))).toEqual(standIn);
      expect(shown(readFileSync(path.join(root, "untyped", `${name}.ts`), "utf8"))).toEqual(standIn);
    }
  });

  it("writes as .js the same module without annotations", () => {
    const js = renderGenModule(entriesOf("nested-member-comments"), { typescript: false });
    expect(js).not.toContain(":any");
    expect(() => new Function(js.replace(/^import .*$/m, "").replace("registerSpecs(", "void ("))).not.toThrow();
  });
});

describe("TypeScript's validators", () => {
  const asJavaScript = (typed: string) =>
    ts.transpileModule(`export default ${typed};`, { compilerOptions: { target: ts.ScriptTarget.ES2022 } }).outputText;
  const factory = (javascript: string) =>
    new Function(`${javascript.replace("export default", "return")}`)() as (
      h: unknown,
      s: unknown,
    ) => (v: unknown) => boolean;

  it.each(cases)("decide as the JavaScript ones: %s", (name) => {
    for (const spec of specsOf(name)) {
      for (const schema of [spec.parameters, spec.outputSchema].filter((s) => s !== undefined)) {
        const plain = validatorSource(schema);
        const typed = validatorSource(schema, { typescript: true });
        if (!plain || !typed) continue;
        const js = factory(`export default ${plain};`)(validatorHelpers, schema);
        const fromTs = factory(asJavaScript(typed))(validatorHelpers, schema);
        const decide = (value: unknown): void => {
          expect(fromTs(value)).toBe(js(value));
        };
        for (const sample of fixtureSamples(name)) decide(sample);
        fc.assert(
          fc.property(valuesFor(schema, schema), (value) => decide(value)),
          { numRuns: 100, seed: 28 },
        );
      }
    }
    expect(existsSync(path.join(FIXTURES, name, "expected.json"))).toBe(true);
  });
});
