import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.{ts,tsx}", "scripts/**/*.test.ts"],
    environment: "node",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Every core (vitest's default leaves one idle: a single worker on a two-core machine): the
    // files spend much of their time waiting on Postgres, child processes and timers.
    maxWorkers: Math.max(2, availableParallelism()),
  },
});
