import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: [
      "packages/*/test/**/*.test.ts",
      "test/**/*.test.ts",
      "examples/*/test/**/*.test.ts",
      "scripts/bench/test/**/*.test.mjs",
    ],
    exclude: ["**/node_modules/**", "**/fixtures/**"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: "forks",
    maxWorkers: 2,
  },
});
