/**
 * Regular expressions for the holes of template literal types, built as a small tree so a
 * hole can be narrowed (the text after it must not start inside it) before it is written
 * out. Character classes are sets of code points.
 */

/** Sorted, disjoint, inclusive code-point ranges. */
type Ranges = readonly (readonly [number, number])[];

export type HoleRegex =
  | { readonly kind: "class"; readonly ranges: Ranges; readonly guard?: string }
  | { readonly kind: "seq"; readonly parts: readonly HoleRegex[] }
  | { readonly kind: "alt"; readonly parts: readonly HoleRegex[] }
  | { readonly kind: "repeat"; readonly part: HoleRegex; readonly min: 0 | 1; readonly max?: 1 };

const MAX = 0x10ffff;
const ALL: Ranges = [[0, MAX]];
// JavaScript's `\s`: WhiteSpace and LineTerminator, also what `Number(" 1 ")` trims.
const SPACE: Ranges = [
  [0x09, 0x0d],
  [0x20, 0x20],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
  [0xfeff, 0xfeff],
];

function normalize(ranges: Iterable<readonly [number, number]>): Ranges {
  const sorted = [...ranges].filter(([lo, hi]) => lo <= hi).sort((a, b) => a[0] - b[0]);
  const out: [number, number][] = [];
  for (const [lo, hi] of sorted) {
    const last = out.at(-1);
    if (last && lo <= last[1] + 1) last[1] = Math.max(last[1], hi);
    else out.push([lo, hi]);
  }
  return out;
}

function complement(ranges: Ranges): Ranges {
  const out: [number, number][] = [];
  let next = 0;
  for (const [lo, hi] of ranges) {
    if (lo > next) out.push([next, lo - 1]);
    next = hi + 1;
  }
  if (next <= MAX) out.push([next, MAX]);
  return out;
}

const minus = (a: Ranges, b: Ranges): Ranges => complement(normalize([...complement(a), ...b]));
const covers = (a: Ranges, b: Ranges): boolean => minus(b, a).length === 0;
const has = (ranges: Ranges, point: number): boolean => ranges.some(([lo, hi]) => lo <= point && point <= hi);

/** A class of the characters listed (`"0-9a-f"` style ranges are written out by the caller). */
export function chars(...spans: readonly string[]): HoleRegex {
  const ranges = spans.map((span): [number, number] => {
    const [lo = 0, hi = lo] = [...span].map((c) => c.codePointAt(0) as number);
    return [lo, hi];
  });
  return { kind: "class", ranges: normalize(ranges) };
}

export const anyChar: HoleRegex = { kind: "class", ranges: ALL };
export const space: HoleRegex = { kind: "class", ranges: SPACE };
export const seq = (...parts: HoleRegex[]): HoleRegex => ({ kind: "seq", parts });
export const alt = (...parts: HoleRegex[]): HoleRegex => ({ kind: "alt", parts });
export const many = (part: HoleRegex): HoleRegex => ({ kind: "repeat", part, min: 0 });
export const some = (part: HoleRegex): HoleRegex => ({ kind: "repeat", part, min: 1 });
export const optional = (part: HoleRegex): HoleRegex => ({ kind: "repeat", part, min: 0, max: 1 });

/**
 * The strings of `re` in which `text` starts nowhere: a hole followed by `text` then ends
 * at the first place `text` occurs, as TypeScript splits a string. One character is taken
 * out of every class; a longer text is refused at each character that could begin it.
 */
export function avoiding(re: HoleRegex, text: string): HoleRegex {
  const points = [...text].map((c) => c.codePointAt(0) as number);
  const first = points[0];
  if (first === undefined) return re;
  const narrow = (node: HoleRegex): HoleRegex => {
    if (node.kind === "class") {
      if (!has(node.ranges, first)) return node;
      return points.length === 1
        ? { kind: "class", ranges: minus(node.ranges, [[first, first]]) }
        : { ...node, guard: text };
    }
    if (node.kind === "repeat") return { ...node, part: narrow(node.part) };
    const parts = node.parts.map(narrow);
    return node.kind === "seq" ? seq(...parts) : alt(...parts);
  };
  return simplify(narrow(re));
}

const NOTHING: HoleRegex = { kind: "class", ranges: [] };
const EMPTY: HoleRegex = { kind: "seq", parts: [] };
const isNothing = (re: HoleRegex) => re.kind === "class" && re.ranges.length === 0;
const isEmpty = (re: HoleRegex) => re.kind === "seq" && re.parts.length === 0;

/** `re` without the parts a narrowing made impossible (a class left with no characters). */
function simplify(re: HoleRegex): HoleRegex {
  if (re.kind === "class") return re;
  if (re.kind === "repeat") {
    const part = simplify(re.part);
    if (isNothing(part)) return re.min === 0 ? EMPTY : NOTHING;
    return isEmpty(part) ? EMPTY : { ...re, part };
  }
  const parts = re.parts.map(simplify);
  if (re.kind === "seq") {
    if (parts.some(isNothing)) return NOTHING;
    const kept = parts.filter((part) => !isEmpty(part));
    return kept.length === 1 ? (kept[0] as HoleRegex) : { kind: "seq", parts: kept };
  }
  const kept = parts.filter((part) => !isNothing(part));
  return kept.length === 0 ? NOTHING : kept.length === 1 ? (kept[0] as HoleRegex) : { kind: "alt", parts: kept };
}

/** The characters that are, alone, a string of `re`. */
export function singleCharacters(re: HoleRegex): HoleRegex {
  return { kind: "class", ranges: single(re) };
}

function single(re: HoleRegex): Ranges {
  if (re.kind === "class") return re.guard === undefined ? re.ranges : [];
  if (re.kind === "repeat") return single(re.part);
  if (re.kind === "alt") return normalize(re.parts.flatMap(single));
  return normalize(
    re.parts.flatMap((part, i) => (re.parts.every((p, j) => j === i || nullable(p)) ? single(part) : [])),
  );
}

function nullable(re: HoleRegex): boolean {
  if (re.kind === "class") return false;
  if (re.kind === "repeat") return re.min === 0 || nullable(re.part);
  return re.kind === "alt" ? re.parts.some(nullable) : re.parts.every(nullable);
}

/** `text` as a regular expression matching exactly it (Unicode mode). */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function point(code: number): string {
  const c = String.fromCodePoint(code);
  if (/[\\\][^-]/.test(c)) return `\\${c}`;
  if (code >= 0x21 && code <= 0x7e) return c;
  if (code === 0x20) return " ";
  return code > 0xffff ? `\\u{${code.toString(16)}}` : `\\u${code.toString(16).padStart(4, "0")}`;
}

function list(ranges: Ranges): string {
  return ranges
    .map(([lo, hi]) => (lo === hi ? point(lo) : hi === lo + 1 ? point(lo) + point(hi) : `${point(lo)}-${point(hi)}`))
    .join("");
}

/** The shortest way to write a class: its members or its complement, `\s` and `\S` where they fit. */
function classSource(ranges: Ranges): string {
  if (ranges.length === 0) return "[]";
  if (covers(ranges, ALL)) return "[\\s\\S]";
  if (covers(ranges, SPACE) && covers(SPACE, ranges)) return "\\s";
  if (ranges.length === 1 && ranges[0]?.[0] === 0x30 && ranges[0][1] === 0x39) return "\\d";
  const [only] = ranges;
  if (ranges.length === 1 && only && only[0] === only[1]) {
    return only[0] >= 0x20 && only[0] <= 0x7e ? escapeRegExp(String.fromCodePoint(only[0])) : `[${point(only[0])}]`;
  }
  const other = complement(ranges);
  const nonSpace = complement(SPACE);
  const candidates = [
    `[${list(ranges)}]`,
    covers(ranges, SPACE) ? `[\\s${list(minus(ranges, SPACE))}]` : undefined,
    `[^${list(other)}]`,
    covers(other, SPACE) ? `[^\\s${list(minus(other, SPACE))}]` : undefined,
    covers(other, nonSpace) ? `[^\\S${list(minus(other, nonSpace))}]` : undefined,
  ].filter((c): c is string => c !== undefined);
  return candidates.reduce((a, b) => (b.length < a.length ? b : a));
}

/** `re` written as a regular expression (Unicode mode, as JSON Schema patterns are read). */
export function regexSource(re: HoleRegex): string {
  if (re.kind === "class") {
    const body = classSource(re.ranges);
    return re.guard === undefined ? body : `(?:(?!${escapeRegExp(re.guard)})${body})`;
  }
  if (re.kind === "seq") return re.parts.map((part) => regexSource(part)).join("");
  if (re.kind === "alt") {
    // `a|(?:b|c)` is `a|b|c`.
    const flat = re.parts.flatMap((part) => (part.kind === "alt" ? part.parts : [part]));
    return `(?:${flat.map((part) => regexSource(part)).join("|")})`;
  }
  const inner = regexSource(re.part);
  const atom =
    re.part.kind === "repeat" || (re.part.kind === "seq" && re.part.parts.length !== 1) ? `(?:${inner})` : inner;
  return atom + (re.max === 1 ? "?" : re.min === 0 ? "*" : "+");
}
