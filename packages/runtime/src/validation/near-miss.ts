/** Edit distance between two short strings (insertions, deletions, substitutions). */
function distance(a: string, b: string): number {
  // Two rows of the usual table, reused: keys are at most 64 characters (see nearMiss).
  let previous = new Uint8Array(b.length + 1);
  let current = new Uint8Array(b.length + 1);
  for (let j = 0; j <= b.length; j++) previous[j] = j;
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      current[j] = Math.min(
        (previous[j] as number) + 1,
        (current[j - 1] as number) + 1,
        (previous[j - 1] as number) + cost,
      );
    }
    const done = previous;
    previous = current;
    current = done;
  }
  return previous[b.length] as number;
}

const folded = (key: string): string => key.toLowerCase().replace(/[_-]/g, "");

// The folded keys of each list of accepted keys (a schema's, kept by `declaredKeys`).
const foldedLists = new WeakMap<readonly string[], readonly string[]>();

function foldedAll(accepted: readonly string[]): readonly string[] {
  let list = foldedLists.get(accepted);
  if (!list) {
    list = accepted.map(folded);
    foldedLists.set(accepted, list);
  }
  return list;
}

/**
 * The accepted key a model most likely meant by an unexpected one: the same key in
 * another case or with other separators (`order_id` for `orderId`), the one it starts
 * (`order` for `orderId`), or one a typo or two away (`traveller` for `travellers`). `undefined` when nothing is close or two keys are
 * equally close, so the feedback never guesses wildly.
 */
export function nearMiss(key: string, accepted: readonly string[]): string | undefined {
  if (key.length > 64) return undefined;
  const wanted = folded(key);
  const candidates = foldedAll(accepted);
  const exact = candidates.indexOf(wanted);
  if (exact >= 0) return accepted[exact];
  // Short keys are one edit from too many others to tell which was meant.
  if (key.length < 4) return undefined;
  const prefixed = accepted.filter((_, i) => {
    const c = candidates[i] ?? "";
    return c.startsWith(wanted) || wanted.startsWith(c);
  });
  if (prefixed.length === 1) return prefixed[0];
  const limit = key.length < 6 ? 1 : 2;
  let best: { key: string; score: number; tied: boolean } | undefined;
  for (const [i, candidate] of accepted.entries()) {
    const folding = candidates[i] ?? "";
    // The distance is at least the difference in length: no need to compute it past the limit.
    if (Math.abs(folding.length - wanted.length) > limit) continue;
    const score = distance(wanted, folding);
    if (score > limit || (best && score > best.score)) continue;
    best = best && score === best.score ? { ...best, tied: true } : { key: candidate, score, tied: false };
  }
  if (best?.tied) return undefined;
  return best?.key;
}
