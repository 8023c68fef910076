import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { TempProject } from "../compiler/project.js";

// Every code block of the README and the guides is checked, so none can rot:
// - ts / typescript: compiled together by the real tspc with the toolwright transformer,
//   each block its own module; no error at all unless the fence says `ts error=TW990001`,
//   in which case exactly that toolwright diagnostic is expected in the block;
// - json / jsonc: parsed;
// - sh: every `npm run X` / `npm test` names a script of the root package.json;
// - text: printed output, shown as is.
// A block without a language is refused: say what it is.
// Relative links outside code (`](docs/x.md)`, `](../adr/0005-....md#a-heading)`) must name
// an existing file and, with a `#`, a heading of that file.

const ROOT = path.resolve(import.meta.dirname, "..", "..");

interface Block {
  readonly doc: string;
  readonly line: number;
  readonly lang: string;
  readonly expect?: string;
  readonly code: string;
}

function markdownFiles(): string[] {
  const out = ["README.md"];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
      const relative = path.join(dir, entry.name);
      // Generated reference and decision records (which quote code as it was) are not guides.
      if (entry.isDirectory() && !["api", "adr"].includes(entry.name)) walk(relative);
      else if (entry.isFile() && entry.name.endsWith(".md")) out.push(relative);
    }
  };
  walk("docs");
  return out;
}

function blocksOf(doc: string): Block[] {
  const lines = readFileSync(path.join(ROOT, doc), "utf8").split("\n");
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    // A fence is three or more backticks; it closes on a line of at least as many.
    const open = /^(\s*)(`{3,})([^`\s]*)\s*(.*)$/.exec(lines[i] as string);
    if (!open) continue;
    const indent = open[1] as string;
    const fence = open[2] as string;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && !(lines[i] as string).startsWith(`${indent}${fence}`); i++) {
      body.push((lines[i] as string).slice(indent.length));
    }
    const expectCode = /error=(TW\d+)/.exec(open[4] ?? "")?.[1];
    blocks.push({
      doc,
      line: start + 1,
      lang: open[3] ?? "",
      ...(expectCode ? { expect: expectCode } : {}),
      code: body.join("\n"),
    });
  }
  return blocks;
}

interface Link {
  readonly doc: string;
  readonly line: number;
  readonly target: string;
}

/** Relative links of a document, outside fenced blocks and inline code. */
function linksOf(doc: string): Link[] {
  const links: Link[] = [];
  let fenced = false;
  readFileSync(path.join(ROOT, doc), "utf8")
    .split("\n")
    .forEach((text, i) => {
      if (/^\s*```/.test(text)) fenced = !fenced;
      if (fenced) return;
      for (const [, target] of text.replace(/`[^`]*`/g, "").matchAll(/\]\(([^)\s]+)\)/g)) {
        if (!/^[a-z][a-z+.-]*:/i.test(target as string)) links.push({ doc, line: i + 1, target: target as string });
      }
    });
  return links;
}

/** GitHub's anchors of a document's headings: lower case, punctuation dropped, spaces as dashes. */
function anchorsOf(file: string): Set<string> {
  const headings = readFileSync(file, "utf8")
    .replace(/^\s*```[\s\S]*?^\s*```/gm, "")
    .matchAll(/^#{1,6}\s+(.+)$/gm);
  return new Set(
    [...headings].map(([, title]) =>
      (title as string)
        .trim()
        .toLowerCase()
        .replace(/[^\p{L}\p{N}\s_-]/gu, "")
        .replace(/\s/g, "-"),
    ),
  );
}

const blocks = markdownFiles().flatMap(blocksOf);
const where = (b: Block) => `${b.doc}:${b.line}`;
const project = new TempProject("doc-blocks", {}, { types: ["node"], experimentalDecorators: false });

afterAll(() => rmSync(project.dir, { recursive: true, force: true }));

describe("code blocks in the README and docs/", () => {
  it("every block says its language", () => {
    expect(blocks.filter((b) => b.lang === "").map(where)).toEqual([]);
    expect(blocks.length).toBeGreaterThan(20);
  });

  it("every relative link names an existing file (and heading)", () => {
    const broken: string[] = [];
    for (const link of markdownFiles().flatMap(linksOf)) {
      const [file = "", anchor] = link.target.split("#");
      const target = file === "" ? path.join(ROOT, link.doc) : path.resolve(ROOT, path.dirname(link.doc), file);
      const at = `${link.doc}:${link.line}: ${link.target}`;
      if (!existsSync(target)) broken.push(`${at} (no such file)`);
      else if (anchor && target.endsWith(".md") && !anchorsOf(target).has(anchor))
        broken.push(`${at} (no such heading)`);
    }
    expect(broken).toEqual([]);
  });

  it("every JSON block parses", () => {
    for (const block of blocks.filter((b) => b.lang === "json" || b.lang === "jsonc")) {
      const text =
        block.lang === "jsonc"
          ? // Comments out (strings kept whole, so a "http://" survives), then trailing commas.
            block.code.replace(/("(?:[^"\\\n]|\\.)*")|\/\/[^\n]*/g, "$1").replace(/,(\s*[}\]])/g, "$1")
          : block.code;
      expect(() => JSON.parse(text), where(block)).not.toThrow();
    }
  });

  it("every npm command in a shell block names a script of the root package.json", () => {
    const scripts = Object.keys(
      (JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> })
        .scripts,
    );
    for (const block of blocks.filter((b) => b.lang === "sh")) {
      for (const [, name] of block.code.matchAll(/^\s*npm (?:run )?([\w:-]+)/gm)) {
        if (name === "install" || name === "i") continue;
        expect(scripts, `${where(block)}: npm ${name}`).toContain(name);
      }
    }
  });

  it("every TypeScript block compiles with the transformer, with exactly the diagnostics it announces", () => {
    const ts = blocks.filter((b) => b.lang === "ts" || b.lang === "typescript");
    const files = new Map<string, Block>();
    ts.forEach((block, i) => {
      const file = `src/${path.basename(block.doc, ".md").toLowerCase()}-${i}.ts`;
      files.set(file, block);
      // `export {}` makes every block a module, so blocks never see each other's names.
      project.write(file, `${block.code}\nexport {};\n`);
    });
    const { output } = project.build();
    const errors = [...output.matchAll(/^(src\/[^(]+)\((\d+),\d+\): error TS(\d+): (.*)$/gm)].map(
      ([, file, line, code, message]) => ({ file: file as string, line: Number(line), code: Number(code), message }),
    );
    for (const [file, block] of files) {
      const found = errors.filter((e) => e.file === file);
      const wanted = block.expect ? Number(block.expect.slice(2)) : undefined;
      expect(
        found.filter((e) => e.code !== wanted).map((e) => `${where(block)} (+${e.line - 1}): TS${e.code} ${e.message}`),
      ).toEqual([]);
      if (wanted)
        expect(
          found.map((e) => e.code),
          where(block),
        ).toContain(wanted);
    }
    // One program of every block, compiled with the transformer: minutes on a busy 2-core machine.
  }, 300_000);
});
