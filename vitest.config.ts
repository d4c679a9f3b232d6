import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";
import EnvironmentGroupedSequencer from "./scripts/vitest/sequencer";

export default defineConfig({
  test: {
    include: ["src/**/*.test.{ts,tsx}", "scripts/**/*.test.ts"],
    environment: "node",
    // `npm test` runs vitest beside the browser tests and the static checks: on two cores a test
    // that spawns processes (git, Python, node) can take several times its quiet time.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: "forks",
    // One worker more than the cores (vitest's default leaves one idle): the files spend much of
    // their time waiting on Postgres, child processes and timers. On two cores, three workers
    // ran the suite in 229 s against 264-284 s with two (docs/benchmarks.md).
    maxWorkers: Number(process.env.SVC_TEST_WORKERS) || Math.max(3, availableParallelism() + 1),
    // One module graph per worker, not per file: importing the server anew for each file was a
    // third of the run. Each file still builds its own platform on its own database; state that
    // lives in modules is per database (WeakMaps keyed by the Db) or keyed by content.
    isolate: false,
    // The node files, then the jsdom files: a worker is reused only for a file of its environment.
    sequence: { sequencer: EnvironmentGroupedSequencer },
    // A file that leaves a browser document on the globals fails (the next file's server would see it).
    setupFiles: ["scripts/vitest/leaked-globals.ts"],
  },
});
