import { z } from "zod";

/** Most calculated fields one query (or one workbook) may define. */
export const MAX_CALCULATED_FIELDS = 20;

/**
 * A field computed by a formula over the members of the query's view (docs/data-model.md,
 * "Calculated fields"): a measure when it aggregates (`revenue / customers_count`,
 * `count(where status = 'returned') / count`), a dimension when it reads rows only
 * (`amount * 1.2`). The formula is parsed and type-checked by the platform and compiled per
 * engine; it is never SQL.
 */
export interface CalculatedField {
  /** An identifier; the query names the field `<view>.<name>`. */
  name: string;
  formula: string;
  title?: string;
  format?: "currency" | "percent" | "number";
}

export const CalculatedFieldSchema = z
  .strictObject({
    name: z.string().max(100).meta({ description: "An identifier ([_a-zA-Z][_a-zA-Z0-9]*); the query names the field `<view>.<name>`." }),
    // The validator refuses a formula over its length limit with a position; this bound only keeps bodies small.
    formula: z
      .string()
      .max(10_000)
      .meta({ description: "revenue / customers_count, count(where status = 'returned') / count, amount * 1.2 (docs/data-model.md)." }),
    title: z.string().max(200).optional(),
    format: z.enum(["currency", "percent", "number"]).optional(),
  })
  .meta({ id: "CalculatedField" });

type Assignable<T extends U, U> = T;
export type CalculatedFieldIsWire = Assignable<CalculatedField, z.input<typeof CalculatedFieldSchema>>;
