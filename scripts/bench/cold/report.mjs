/**
 * Shared by the cold-start children: prints the time since the process started (Node's
 * `performance.now()` counts from process start) as the `firstCallMs` figure.
 */
export function reportFirstCall(ok) {
  if (ok !== true) throw new Error(`the first call was not validated as expected: ${JSON.stringify(ok)}`);
  process.stderr.write(`\n@@bench ${JSON.stringify({ firstCallMs: performance.now() })}\n`);
}
