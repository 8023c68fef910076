import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { jsonOfTsconfig, solutionReferences, toolwrightOptionsOf } from "../src/tsconfig-file.js";
import { removeTempProject, tempProject } from "./temp-project.js";

const root = tempProject("tsconfig-file");
afterAll(() => removeTempProject(root));

describe("reading a tsconfig as TypeScript does", () => {
  it("drops comments and trailing commas, and leaves strings as written", () => {
    const text = `{
      // a line comment
      "a": "http://x//y", /* a block */ "b": [1, 2,],
      "c": "a,}b", "d": "quote \\" // not a comment",
    }`;
    expect(JSON.parse(jsonOfTsconfig(text))).toEqual({
      a: "http://x//y",
      b: [1, 2],
      c: "a,}b",
      d: 'quote " // not a comment',
    });
  });

  it("keeps every position where it is in the file: comments and trailing commas become spaces", () => {
    const text = `{\n  /* two\n  lines */ "a": [1,], // end\n  "b": 2\n}`;
    const json = jsonOfTsconfig(text);
    expect(json).toHaveLength(text.length);
    expect(json.split("\n")).toHaveLength(text.split("\n").length);
    expect(json.indexOf('"b"')).toBe(text.indexOf('"b"'));
    expect(JSON.parse(json)).toEqual({ a: [1], b: 2 });
  });

  it("reads a file saved with a byte order mark, and a no-break space, as TypeScript does", () => {
    expect(JSON.parse(jsonOfTsconfig(`\uFEFF{\u00A0"a": 1 }`))).toEqual({ a: 1 });
  });
});

describe("toolwright's options from a tsconfig and the configs it extends", () => {
  const write = (file: string, value: unknown) => writeFileSync(path.join(root, file), JSON.stringify(value));
  const entry = (options: Record<string, unknown>) => ({
    compilerOptions: { plugins: [{ transform: "@toolwright/compiler/transform", ...options }] },
  });

  it("takes the nearest config that sets plugins; of an extends list, the last one first", () => {
    write("first.json", entry({ minDescriptionLength: 1 }));
    write("second.json", entry({ minDescriptionLength: 2 }));
    write("child.json", { extends: ["./first.json", "./second"] });
    expect(toolwrightOptionsOf(path.join(root, "child.json"))).toEqual({ minDescriptionLength: 2 });
    write("own.json", { extends: "./child.json", ...entry({ requireAnnotations: true }) });
    expect(toolwrightOptionsOf(path.join(root, "own.json"))).toEqual({ requireAnnotations: true });
    write("none.json", { extends: "./none-base.json" });
    write("none-base.json", { compilerOptions: { strict: true } });
    expect(toolwrightOptionsOf(path.join(root, "none.json"))).toEqual({});
  });

  it("names the file and the fix when a config cannot be read or extended", () => {
    write("missing.json", { extends: "./nowhere.json" });
    expect(() => toolwrightOptionsOf(path.join(root, "missing.json"))).toThrow(
      /missing\.json extends "\.\/nowhere\.json", which does not exist\. Fix: correct the path in "extends"\./,
    );
    write("loop-a.json", { extends: "./loop-b.json" });
    write("loop-b.json", { extends: "./loop-a.json" });
    expect(() => toolwrightOptionsOf(path.join(root, "loop-a.json"))).toThrow(/extends itself .*Fix: break the cycle/);
    writeFileSync(path.join(root, "broken.json"), "{ compilerOptions: ");
    expect(() => toolwrightOptionsOf(path.join(root, "broken.json"))).toThrow(
      /broken\.json\(1,3\): not valid JSON: .*Fix: correct it there \(comments and trailing commas are fine\)\./,
    );
    // The place is the file's, after a comment and a trailing comma; the end of the file when V8 names none.
    writeFileSync(path.join(root, "late.json"), `{\n  // options\n  "include": ["src",],\n  "files": [1 2]\n}`);
    expect(() => toolwrightOptionsOf(path.join(root, "late.json"))).toThrow(/late\.json\(4,15\): not valid JSON: /);
    writeFileSync(path.join(root, "cut.json"), `{\n  "include": [`);
    expect(() => toolwrightOptionsOf(path.join(root, "cut.json"))).toThrow(
      /cut\.json\(2,15\): not valid JSON: Unexpected end\. Fix/,
    );
  });
});

describe("a solution tsconfig: no files of its own, only references", () => {
  const write = (file: string, value: unknown) => {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), JSON.stringify(value));
  };
  const at = (file: string) => path.join(root, file);

  it("lists the tsconfig files it references, a folder meaning its tsconfig.json (Vite's templates, a monorepo's root)", () => {
    write("vite/tsconfig.json", {
      files: [],
      references: [{ path: "./tsconfig.app.json" }, { path: "./tsconfig.node.json" }],
    });
    expect(solutionReferences(at("vite/tsconfig.json"))).toEqual([
      at("vite/tsconfig.app.json"),
      at("vite/tsconfig.node.json"),
    ]);
    write("mono/packages/a/tsconfig.json", { include: ["src"] });
    write("mono/tsconfig.json", { files: [], references: [{ path: "packages/a" }] });
    expect(solutionReferences(at("mono/tsconfig.json"))).toEqual([at("mono/packages/a/tsconfig.json")]);
  });

  it("takes files and include from the configs it extends, as TypeScript does", () => {
    write("empty-base.json", { files: [] });
    write("solution-by-base.json", { extends: "./empty-base.json", references: [{ path: "./a.json" }] });
    expect(solutionReferences(at("solution-by-base.json"))).toEqual([at("a.json")]);
    write("include-base.json", { include: ["src"] });
    write("own-files.json", { extends: "./include-base.json", files: [], references: [{ path: "./a.json" }] });
    expect(solutionReferences(at("own-files.json"))).toEqual([]);
  });

  it("is none for a project with files of its own, references or not", () => {
    write("with-files.json", { files: ["src/main.ts"], references: [{ path: "./a.json" }] });
    write("with-include.json", { files: [], include: ["src"], references: [{ path: "./a.json" }] });
    write("default-include.json", { references: [{ path: "./a.json" }] });
    write("no-references.json", { files: [] });
    for (const file of ["with-files.json", "with-include.json", "default-include.json", "no-references.json"]) {
      expect(solutionReferences(at(file))).toEqual([]);
    }
  });
});
