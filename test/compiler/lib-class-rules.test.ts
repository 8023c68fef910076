import path from "node:path";
import ts from "typescript";
import { afterAll, describe, expect, it } from "vitest";
import type { Backend, TsType } from "../../packages/compiler/src/backend/backend.js";
import type { FunctionLike, Node } from "../../packages/compiler/src/backend/syntax.js";
import { Ts5Backend } from "../../packages/compiler/src/backend/ts5/ts5-backend.js";
import { SchemaConverter } from "../../packages/compiler/src/schema/SchemaConverter.js";
import { removeTempProject } from "../../packages/compiler/test/temp-project.js";
import { sourceProject, ts7Session } from "../ts7/project.js";

// The rules that look for a library class (`Date` becomes a date-time string; `Map`, `Set`,
// `Promise` ... are refused) ask a type's symbol, except an array's: its symbol is the lib's
// `Array` or `ReadonlyArray`, which neither rule takes, and over TypeScript 7 that symbol
// (declared across a dozen lib files) is the slowest one to fetch. The schemas must stay the
// same on both compilers.

const TYPES = `export interface Item { id: string }
export function use(
  tags: string[],
  items: readonly Item[],
  nested: number[][],
  pair: [string, number],
  when: Date,
  counts: Map<string, number>,
): void {}
`;

const OPTIONS = { strict: true, skipLibCheck: true, noEmit: true, types: [] };

/** Each parameter of `use`: its schema, its issues, and the types whose symbols the rules asked. */
function derived(backend: Backend, fileName: string) {
  const asked: string[] = [];
  // The rules reach the backend through the converter: every other question passes through.
  const recording = new Proxy(backend, {
    get(target, key) {
      const value = Reflect.get(target, key, target);
      if (key === "symbolOfType")
        return (t: TsType) => {
          asked.push(target.typeToString(t));
          return target.symbolOfType(t);
        };
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  const file = backend.sourceFile(fileName) as Node;
  let use: FunctionLike | undefined;
  file.forEachChild((n) => {
    if (backend.syntax.isFunctionDeclaration(n)) use = n;
  });
  if (!use) throw new Error("no function use()");
  return use.parameters.map((p) => {
    const converter = new SchemaConverter(recording);
    const name = p.name.getText();
    const schema = converter.convertRoot(backend.typeAtLocation(p.name), name, p.type);
    return { name, schema, issues: converter.issues.map((i) => i.fix), asked: [...new Set(asked.splice(0))] };
  });
}

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) removeTempProject(root);
});

function project(name: string): string {
  const root = sourceProject(name, OPTIONS, { "use.ts": TYPES });
  roots.push(root);
  return root;
}

function onTs5(): ReturnType<typeof derived> {
  const root = project("lib-class-rules-ts5");
  const fileName = path.join(root, "src", "use.ts");
  const program = ts.createProgram([fileName], {
    ...OPTIONS,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
  });
  return derived(new Ts5Backend(program), fileName);
}

describe("the date and library-class rules", () => {
  it("map Date and refuse Map without asking an array's symbol, on TypeScript 5", () => {
    const found = onTs5();
    const byName = Object.fromEntries(found.map((p) => [p.name, p]));
    expect(byName.tags?.schema).toEqual({ type: "array", items: { type: "string" } });
    expect(byName.nested?.schema).toEqual({ type: "array", items: { type: "array", items: { type: "number" } } });
    expect(byName.when?.schema).toMatchObject({ type: "string", format: "date-time" });
    expect(byName.counts?.issues).toEqual(["use `Record<string, V>` (a plain object)"]);
    expect(byName.when?.asked).toContain("Date");
    expect(byName.counts?.asked).toContain("Map<string, number>");
    // The arrays' element types are asked (an element may be a Date); the arrays are not.
    for (const p of found) expect(p.asked.filter((t) => t.endsWith("[]"))).toEqual([]);
    expect(byName.items?.asked).toContain("Item");
  });

  it("give the same schemas, asking the same symbols, on TypeScript 7", () => {
    const root = project("lib-class-rules-ts7");
    const session = ts7Session(root);
    try {
      const found = derived(session.open().backend, path.join(root, "src", "use.ts"));
      expect(found).toEqual(onTs5());
    } finally {
      session.close();
    }
  });
});
