/**
 * A platform node for the two-node tests: `src/server/main.ts` plus one job kind of the test's
 * own, `e2e.slow-write`, that sleeps `payload.ms` and then writes one row into `e2e_job_effects`
 * in the transaction that completes the job (how a feature's job makes its effects exactly once).
 */
import { sql } from "drizzle-orm";
import { loadConfig } from "../../src/server/config";
import { createLogger } from "../../src/server/logger";
import { startPlatform } from "../../src/server/platform";

const config = loadConfig();
const logger = createLogger(config.SVC_LOG_LEVEL);
const platform = await startPlatform(config, logger);
const nodeId = platform.node.nodeId;

platform.node.jobs.register("e2e.slow-write", async (job, ctx) => {
  const ms = typeof job.payload.ms === "number" ? job.payload.ms : 1000;
  await new Promise((resolve) => setTimeout(resolve, ms));
  await ctx.complete(async (tx) => {
    await tx.execute(sql`insert into e2e_job_effects (job_id, node_id, attempt) values (${job.id}, ${nodeId}, ${job.attempt})`);
  });
});

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await platform.stop();
  process.exit(0);
};
process.on("SIGTERM", () => void stop());
process.on("SIGINT", () => void stop());
