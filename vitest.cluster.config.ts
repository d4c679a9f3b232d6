import { defineConfig } from "vitest/config";

/** The two-node tests: real node processes on one Postgres database behind haproxy (`npm run test:cluster`). */
export default defineConfig({
  test: {
    include: ["e2e/cluster/**/*.test.ts"],
    environment: "node",
    testTimeout: 120_000,
    hookTimeout: 240_000,
    pool: "forks",
    fileParallelism: false,
  },
});
