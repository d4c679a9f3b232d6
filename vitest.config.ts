import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.{ts,tsx}", "scripts/**/*.test.ts"],
    environment: "node",
    // `npm test` runs vitest beside the browser tests and the static checks: on two cores a test
    // that spawns processes (git, Python, node) can take several times its quiet time.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: "forks",
    // Every core (vitest's default leaves one idle: a single worker on a two-core machine): the
    // files spend much of their time waiting on Postgres, child processes and timers.
    maxWorkers: Number(process.env.SVC_TEST_WORKERS) || Math.max(2, availableParallelism()),
    // One module graph per worker, not per file: importing the server anew for each file was a
    // third of the run. Each file still builds its own platform on its own database; state that
    // lives in modules is per database (WeakMaps keyed by the Db) or keyed by content.
    isolate: false,
  },
});
