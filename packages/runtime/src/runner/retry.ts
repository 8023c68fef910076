/** How the engine retries a retryable `ToolError` from a `readOnly` or `idempotent` tool. */
export interface ToolRetryPolicy {
  /** Attempts in all, the first included (default 3). */
  readonly maxAttempts?: number;
  /** Wait before the second attempt (default 500 ms); each later wait doubles. */
  readonly initialBackoffMs?: number;
  /** Upper bound of one wait (default 10,000 ms). */
  readonly maxBackoffMs?: number;
  /** Each wait is spread by up to this fraction either way, so retries of many runs do not align (default 0.2). */
  readonly jitter?: number;
}

/** The policy with every default filled in. */
export type ResolvedRetryPolicy = Required<ToolRetryPolicy>;

/** Fills the defaults: 3 attempts, 500 ms then 1 s, ±20 % jitter. */
export function resolveRetryPolicy(policy: ToolRetryPolicy | undefined): ResolvedRetryPolicy {
  return {
    maxAttempts: policy?.maxAttempts ?? 3,
    initialBackoffMs: policy?.initialBackoffMs ?? 500,
    maxBackoffMs: policy?.maxBackoffMs ?? 10_000,
    jitter: policy?.jitter ?? 0.2,
  };
}

/** The wait before attempt `attempt + 1`, after `attempt` failed (attempt counts from 1). */
export function backoffMs(policy: ResolvedRetryPolicy, attempt: number, random: () => number = Math.random): number {
  const base = Math.min(policy.initialBackoffMs * 2 ** (attempt - 1), policy.maxBackoffMs);
  const spread = base * policy.jitter * (2 * random() - 1);
  return Math.max(0, base + spread);
}

/** Waits `ms`, ending early (rejecting with the signal's reason) when `signal` aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
