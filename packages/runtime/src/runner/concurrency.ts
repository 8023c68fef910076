/**
 * Runs `work` on every item with at most `limit` in flight, and returns the results in
 * the items' order (not in finishing order).
 */
export async function mapConcurrent<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  // One call, the usual turn: no workers to share a queue.
  if (items.length === 1) return [await work(items[0] as T, 0)];
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index] as T, index);
    }
  };
  const workers = Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker);
  await Promise.all(workers);
  return results;
}
