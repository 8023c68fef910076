/**
 * The cost of one call whose arguments are huge (issue 17, item 10): a million numeric
 * strings for a number array (repaired below 10,000 values, refused above), a million
 * wrong items, and a million valid numbers. Prints the median of 5 calls of each, and how
 * much of it JSON.parse alone takes (what no validator can avoid on text arguments).
 * Run alone: `node scripts/bench/large-arguments.mjs`.
 */
import { asTool, validateArguments } from "toolwright";

const ITEMS = 1_000_000;

function arrayTool(items) {
  return asTool({
    name: "t",
    description: "Takes one array.",
    parameters: { type: "object", properties: { xs: { type: "array", items } }, required: ["xs"] },
    execute: () => "ran",
  });
}

const numbers = arrayTool({ type: "number" });
const objects = arrayTool({ type: "object" });
const list = (item) => `{"xs":[${Array(ITEMS).fill(item).join(",")}]}`;

const cases = [
  ["1,000,000 numeric strings for numbers", numbers, list('"1.5"')],
  ["1,000,000 wrong items", objects, list("7")],
  ["1,000,000 valid numbers", numbers, list("1.5")],
];

const median = (values) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];

validateArguments(numbers, '{"xs":[1]}');
validateArguments(objects, '{"xs":[{}]}');
for (const [name, tool, text] of cases) {
  const calls = [];
  const parses = [];
  let check;
  for (let i = 0; i < 5; i++) {
    let start = performance.now();
    JSON.parse(text);
    parses.push(performance.now() - start);
    start = performance.now();
    check = validateArguments(tool, text);
    calls.push(performance.now() - start);
  }
  const verdict = check.ok
    ? `accepted, ${check.repairs.length} repairs`
    : `refused, ${check.error.issues.length} issue(s)`;
  console.log(
    `${name}: ${median(calls).toFixed(0)} ms per call (JSON.parse alone ${median(parses).toFixed(0)} ms); ${verdict}`,
  );
}
