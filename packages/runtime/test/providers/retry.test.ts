import { describe, expect, it } from "vitest";
import { isRetryableStatus, retryDelayMs, serverDelayMs } from "../../src/providers/retry.js";

const policy = { maxRetries: 2, initialDelayMs: 500, maxDelayMs: 60_000 };

describe("retry policy", () => {
  it("retries 408, 409, 429, 5xx and 529 unless x-should-retry says otherwise", () => {
    for (const s of [408, 409, 429, 500, 502, 503, 529]) expect(isRetryableStatus(s, {})).toBe(true);
    for (const s of [400, 401, 403, 404, 422]) expect(isRetryableStatus(s, {})).toBe(false);
    expect(isRetryableStatus(503, { "x-should-retry": "false" })).toBe(false);
    expect(isRetryableStatus(400, { "x-should-retry": "true" })).toBe(true);
  });

  it("reads retry-after-ms, then retry-after in seconds or as an HTTP date", () => {
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(serverDelayMs({ "retry-after-ms": "250", "retry-after": "9" }, now)).toBe(250);
    expect(serverDelayMs({ "retry-after": "3" }, now)).toBe(3000);
    expect(serverDelayMs({ "retry-after": "Thu, 01 Jan 2026 00:00:05 GMT" }, now)).toBe(5000);
    expect(serverDelayMs({ "retry-after": "soon" }, now)).toBeUndefined();
    expect(serverDelayMs({}, now)).toBeUndefined();
  });

  it("caps the server's delay and backs off exponentially (with jitter) without one", () => {
    expect(retryDelayMs({ "retry-after": "600" }, 1, policy)).toBe(60_000);
    const first = retryDelayMs({}, 1, policy);
    expect(first).toBeGreaterThan(375);
    expect(first).toBeLessThanOrEqual(500);
    const fifth = retryDelayMs({}, 5, policy);
    expect(fifth).toBeGreaterThan(6000);
    expect(fifth).toBeLessThanOrEqual(8000);
  });
});
