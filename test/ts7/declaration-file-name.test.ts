import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { isDeclarationFileName } from "../../packages/compiler/src/backend/declaration-file-name.js";
import { loadTs7 } from "../../packages/compiler/src/backend/ts7/ts7-api.js";
import { Ts7Session } from "../../packages/compiler/src/backend/ts7/ts7-session.js";
import { removeTempProject } from "../../packages/compiler/test/temp-project.js";
import { projectWith, TS7 } from "./project.js";

// A TypeScript 7 snapshot names the project's own files without fetching their syntax trees:
// whether a root file is a declaration file is read from its name, as TypeScript itself
// decides it. Checked against what TypeScript 7's parser says of each file.

const NAMES = [
  "plain.ts",
  "module.mts",
  "common.cts",
  "view.tsx",
  "types.d.ts",
  "types-m.d.mts",
  "types-c.d.cts",
  "styles.d.css.ts",
  "data.d.json.ts",
  "twice.d.ts.ts",
  "upper.D.ts",
  "component.d.tsx",
  "mid.d.x.y.ts",
  "ends-d.ts",
  "dotd.d",
];

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) removeTempProject(root);
});

describe("a TypeScript 7 snapshot's own files", () => {
  it("leave out declaration files by name, exactly as TypeScript 7 parses them", () => {
    const root = projectWith("ts7-declaration-names", TS7, {
      "tsconfig.json": JSON.stringify({
        compilerOptions: {
          strict: true,
          skipLibCheck: true,
          types: [],
          jsx: "preserve",
          allowArbitraryExtensions: true,
        },
        files: NAMES.filter((name) => /\.[cm]?tsx?$/.test(name)).map((name) => `src/${name}`),
      }),
    });
    roots.push(root);
    for (const name of NAMES) writeFileSync(path.join(root, "src", name), "export declare const x: number;\n");
    const session = new Ts7Session(loadTs7(TS7), { cwd: root, tsconfig: path.join(root, "tsconfig.json") });
    try {
      const snapshot = session.open();
      const parsed = NAMES.filter((name) => /\.[cm]?tsx?$/.test(name)).map((name) => {
        const file = snapshot.backend.sourceFile(path.join(root, "src", name));
        if (!file) throw new Error(`TypeScript 7 did not load ${name}`);
        return file;
      });
      const own = parsed.filter((file) => !file.isDeclarationFile).map((file) => file.fileName);
      expect(snapshot.fileNames).toEqual(own);
      // The rule alone, on every file TypeScript 7 parsed, then on every name.
      expect(parsed.map((file) => isDeclarationFileName(file.fileName))).toEqual(
        parsed.map((file) => file.isDeclarationFile),
      );
      expect(NAMES.filter(isDeclarationFileName)).toEqual([
        "types.d.ts",
        "types-m.d.mts",
        "types-c.d.cts",
        "styles.d.css.ts",
        "data.d.json.ts",
        "twice.d.ts.ts",
        "mid.d.x.y.ts",
      ]);
    } finally {
      session.close();
    }
  });
});
