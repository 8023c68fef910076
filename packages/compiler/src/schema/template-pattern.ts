import { type Backend, type TsType, TypeFlag } from "../backend/backend.js";
import {
  alt,
  anyChar,
  avoiding,
  chars,
  escapeRegExp,
  type HoleRegex,
  many,
  optional,
  regexSource,
  seq,
  singleCharacters,
  some,
  space,
} from "./hole-regex.js";

const digit = chars("09");
const hexDigit = chars("09", "af", "AF");
const sign = chars("+", "-");
/** `0x1F`, `0o17`, `0b11`: JavaScript's other bases, no sign, no separators. */
const otherBase = alt(
  seq(chars("0"), chars("x", "X"), some(hexDigit)),
  seq(chars("0"), chars("o", "O"), some(chars("07"))),
  seq(chars("0"), chars("b", "B"), some(chars("01"))),
);
const decimal = seq(
  optional(sign),
  alt(seq(some(digit), optional(chars(".")), many(digit)), seq(chars("."), some(digit))),
  optional(seq(chars("e", "E"), optional(sign), some(digit))),
);

/**
 * What TypeScript takes in a `${number}` hole: any text `+text` reads as a finite number,
 * so also exponents (`1e-7`, how JavaScript prints 0.0000001), a leading dot, other bases,
 * and white space around the number (or only white space, which reads as 0). Not checked:
 * a number too large for a double (`1e999`, which reads as Infinity).
 */
const NUMBER_HOLE = alt(some(space), seq(many(space), alt(decimal, otherBase), many(space)));
/** What TypeScript takes in a `${bigint}` hole: a bigint literal without its `n`, maybe negative (`-0x1F`); no leading zero. */
const BIGINT_HOLE = seq(optional(chars("-")), alt(chars("0"), seq(chars("19"), many(digit)), otherBase));
const BOOLEAN_HOLE = alt(seq(...[..."true"].map((c) => chars(c))), seq(...[..."false"].map((c) => chars(c))));
/** `${string}`: any text, line breaks included. */
const STRING_HOLE = many(anyChar);

function holeOf(type: TsType, backend: Backend): HoleRegex {
  const flags = backend.typeFlags(type);
  if (flags & TypeFlag.Number) return NUMBER_HOLE;
  if (flags & TypeFlag.BigInt) return BIGINT_HOLE;
  if (flags & TypeFlag.Boolean) return BOOLEAN_HOLE;
  return STRING_HOLE;
}

/**
 * The anchored regular expression that matches exactly the strings of a template literal
 * type, as TypeScript matches them. TypeScript splits a string left to right at the first
 * occurrence of each text between holes (`` `v${number}.${number}` `` reads `"v1.2.3"` as
 * `1` and `2.3`, and refuses `"v14.18.24.1"`), and a hole right before another takes one
 * character; each hole's expression is narrowed the same way, so no hole can run past the
 * text that follows it.
 */
export function templatePattern(type: TsType, backend: Backend): string {
  const { texts, types } = backend.templateParts(type);
  const body = texts
    .map((text, i) => {
      const hole = types[i];
      if (!hole) return escapeRegExp(text);
      const next = texts[i + 1] ?? "";
      const last = i === types.length - 1;
      const narrowed = last
        ? holeOf(hole, backend)
        : next === ""
          ? singleCharacters(holeOf(hole, backend))
          : avoiding(holeOf(hole, backend), next);
      return escapeRegExp(text) + regexSource(narrowed);
    })
    .join("");
  return `^${body}$`;
}
