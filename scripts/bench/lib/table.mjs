/**
 * One line of the results table. `value` is the median in `unit`; `note` carries secondary
 * figures (CPU time, per-item cost); `ratio` compares with the row's baseline; `target`
 * names the goal and `met` says whether this run reached it.
 *
 * @typedef {{ section: string, name: string, value: number, unit: string, note?: string, ratio?: string, target?: string, met?: boolean }} Row
 */

/** Formats a figure with a precision that suits its size. */
export function fmt(value) {
  if (value >= 100) return Math.round(value).toLocaleString("en-US");
  if (value >= 10) return value.toFixed(1);
  return value.toFixed(2);
}

/** `a / b` as "3.2x". */
export function times(a, b) {
  return `${fmt(a / b)}x`;
}

/**
 * How toolwright compares with a peer, from two costs (time, size: lower is better):
 * "toolwright 3.2x faster" or "toolwright 1.5x slower" (`better`/`worse` name the words).
 */
export function versus(ourCost, theirCost, better = "faster", worse = "slower") {
  return theirCost >= ourCost
    ? `toolwright ${fmt(theirCost / ourCost)}x ${better}`
    : `toolwright ${fmt(ourCost / theirCost)}x ${worse}`;
}

/**
 * The rows as one Markdown table, its columns padded to one width (as Biome formats
 * Markdown), which also reads well in a terminal.
 *
 * @param {Row[]} rows
 */
export function markdownTable(rows) {
  const header = ["Benchmark", "System", "Median", "Also", "Ratio", "Target"];
  const rightAligned = header.map((name) => name === "Median");
  const cells = rows.map((r) => {
    const target = r.target ? `${r.target} ${r.met === undefined ? "" : r.met ? "(met)" : "(missed)"}`.trim() : "";
    return [r.section, r.name, `${fmt(r.value)} ${r.unit}`, r.note ?? "", r.ratio ?? "", target];
  });
  const widths = header.map((name, c) => Math.max(3, name.length, ...cells.map((line) => line[c].length)));
  const line = (values) =>
    `| ${values.map((v, c) => (rightAligned[c] ? v.padStart(widths[c]) : v.padEnd(widths[c]))).join(" | ")} |`;
  const rule = `| ${widths.map((w, c) => (rightAligned[c] ? `${"-".repeat(w - 1)}:` : "-".repeat(w))).join(" | ")} |`;
  return [line(header), rule, ...cells.map(line)].join("\n");
}
