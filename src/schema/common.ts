import { z } from "zod";

/** Every error response body (decisions.md "Errors and lists"). */
export const ErrorBody = z
  .object({
    code: z.string().meta({ description: "Stable snake_case error identifier." }),
    message: z.string(),
    details: z.unknown().optional(),
  })
  .meta({ id: "Error" });
export type ErrorBody = z.infer<typeof ErrorBody>;

export const PageInfo = z
  .object({
    hasNextPage: z.boolean(),
    hasPreviousPage: z.boolean(),
    startCursor: z.string().optional(),
    endCursor: z.string().optional(),
  })
  .meta({ id: "PageInfo" });
export type PageInfo = z.infer<typeof PageInfo>;

/** Cursor page query: `first` (1..100, default 50) and an opaque `after` cursor. */
export const PageQuery = z.object({
  first: z.coerce.number().int().min(1).max(100).optional(),
  after: z.string().min(1).max(200).optional(),
});

/**
 * A list response: `items` and `pageInfo`, plus the deprecated `data` (= items) and `count`
 * (total), still filled for backward compatibility (spec 9.3).
 */
export function listResponse<T extends z.ZodType>(item: T, id: string) {
  return z
    .object({
      items: z.array(item),
      pageInfo: PageInfo,
      data: z.array(item).meta({ deprecated: true, description: "Deprecated: same as items." }),
      count: z.number().int().meta({ deprecated: true, description: "Deprecated: total number of items." }),
    })
    .meta({ id });
}

/** A free-form JSON object. */
export const FreeFormObject = z.record(z.string(), z.unknown());
