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

/** A workbook's field key: `<view>.<name>` (or `<cube>.<name>`), as queries name the field. */
export const WORKBOOK_FIELD_KEY = /^[_a-zA-Z][_a-zA-Z0-9]*\.[_a-zA-Z][_a-zA-Z0-9]*$/;

/** One calculated field of a workbook: its name is its key. */
export const WorkbookCalculatedField = z
  .strictObject({
    formula: CalculatedFieldSchema.shape.formula,
    title: CalculatedFieldSchema.shape.title,
    format: CalculatedFieldSchema.shape.format,
  })
  .meta({ id: "WorkbookCalculatedField" });
export type WorkbookCalculatedField = z.infer<typeof WorkbookCalculatedField>;

/**
 * Spec 2.2 `calculatedFields` of a workbook: `{ "<view>.<name>": { formula, title?, format? } }`,
 * the fields its reports may use (docs/data-model.md, "Calculated fields"). Written whole by an
 * update; formulas are checked against the deployment's model when it has one.
 */
export const WorkbookCalculatedFields = z
  .record(z.string().regex(WORKBOOK_FIELD_KEY, "a key is <view>.<name> (identifiers)"), WorkbookCalculatedField)
  .refine((fields) => Object.keys(fields).length <= MAX_CALCULATED_FIELDS, `at most ${MAX_CALCULATED_FIELDS} calculated fields`)
  .meta({ id: "WorkbookCalculatedFields" });
export type WorkbookCalculatedFields = z.infer<typeof WorkbookCalculatedFields>;
