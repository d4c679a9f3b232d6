import { z } from "zod";
import { Timestamp } from "./common";

/** One rollup of a deployment's model with its build state (docs/data-model.md "Rollups"). */
export const RollupStateSchema = z
  .object({
    name: z.string(),
    cube: z.string(),
    granularity: z.string().meta({ description: "The time grain of its rows." }),
    refreshEvery: z.string().meta({ description: "Cron expression of its refresh schedule." }),
    state: z
      .enum(["pending", "building", "built", "failed", "stale"])
      .meta({ description: "`stale`: built for an earlier definition; queries do not read it until the current one is built." }),
    table: z.string().nullable().meta({ description: "Table of the last build in the data source (`svc_rollups.<name>_<version>`)." }),
    rowCount: z.number().int().nullable(),
    sizeBytes: z.number().int().nullable().meta({ description: "Bytes on disk, where the engine reports it (Postgres)." }),
    lastBuildAt: Timestamp.nullable(),
    nextBuildAt: Timestamp.nullable(),
    error: z.string().nullable().meta({ description: "Why the last build failed." }),
  })
  .meta({ id: "RollupState" });
export type RollupState = z.infer<typeof RollupStateSchema>;

export const RollupListSchema = z.object({ rollups: z.array(RollupStateSchema) }).meta({ id: "RollupList" });
export type RollupList = z.infer<typeof RollupListSchema>;

export const RollupBuildQueuedSchema = z.object({ jobId: z.number().int().nullable() }).meta({ id: "RollupBuildQueued" });
export type RollupBuildQueued = z.infer<typeof RollupBuildQueuedSchema>;
