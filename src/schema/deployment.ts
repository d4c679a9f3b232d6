import { z } from "zod";

/**
 * A deployment: one data model and data source, and everything scoped to it. The spec does
 * not show its fields; these are the ones the platform needs (docs/api.md).
 */
export const Deployment = z
  .object({
    id: z.number().int(),
    name: z.string(),
    dataSource: z.object({ type: z.enum(["duckdb", "postgres"]) }),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: "Deployment" });
export type Deployment = z.infer<typeof Deployment>;
