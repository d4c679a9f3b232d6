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

/** An instant (spec 2.2 timestamps): ISO 8601 date-time with `Z` or an offset; `format: date-time` in the document. */
export const Timestamp = z.iso.datetime({ offset: true });

// ---------------------------------------------------------------------------------------------
// Hostile input (docs/decisions.md "Hostile input"): the primitives every request schema is
// built from. The HTTP edge applies the same rules to every JSON body and query string before
// any route runs; these make each field say so and keep services called directly just as safe.
// ---------------------------------------------------------------------------------------------

/** Largest value of an int4 column: every id and foreign key of the platform. */
export const INT4_MAX = 2_147_483_647;
/** Deepest nesting of JSON the platform accepts; measured on the raw text before it is parsed. */
export const MAX_JSON_DEPTH = 64;

// A high surrogate not followed by a low one, or a low one not preceded by a high one.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Why a text cannot be accepted, or null. Postgres text cannot hold NUL (U+0000), and a UTF-16
 * surrogate without its pair has no UTF-8 encoding (jsonb refuses its escape; text would store
 * U+FFFD instead), so both are refused wherever text comes in: values, keys, parameters.
 */
export function textProblem(text: string): string | null {
  if (text.includes("\u0000")) return "must not contain NUL (U+0000)";
  if (LONE_SURROGATE.test(text)) return "must not contain an unpaired UTF-16 surrogate";
  return null;
}

export interface JsonProblem {
  /** JSON path of the bad value or key. */
  path: (string | number)[];
  message: string;
  code: "unsafe_text" | "too_deep";
}

/**
 * The first string or key of a JSON value the platform refuses (see `textProblem`), or a
 * nesting deeper than `maxDepth`, with its path. Iterative: no depth can overflow the stack.
 */
export function jsonProblem(value: unknown, maxDepth = MAX_JSON_DEPTH): JsonProblem | null {
  const stack: { value: unknown; path: (string | number)[] }[] = [{ value, path: [] }];
  while (stack.length) {
    const { value: v, path } = stack.pop()!;
    if (typeof v === "string") {
      const problem = textProblem(v);
      if (problem) return { path, message: problem, code: "unsafe_text" };
    } else if (v !== null && typeof v === "object") {
      if (path.length >= maxDepth) return { path, message: `nested deeper than ${maxDepth} levels`, code: "too_deep" };
      if (Array.isArray(v)) {
        for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], path: [...path, i] });
      } else {
        const entries = Object.entries(v);
        for (let i = entries.length - 1; i >= 0; i--) {
          const [key, child] = entries[i]!;
          const problem = textProblem(key);
          if (problem) return { path: [...path, key], message: `key ${problem}`, code: "unsafe_text" };
          stack.push({ value: child, path: [...path, key] });
        }
      }
    }
  }
  return null;
}

/**
 * How deep JSON text nests, counted on the raw text without parsing it (brackets outside
 * strings); counting stops once past `limit`. For a body reader to refuse deep nesting before
 * anything recursive runs.
 */
export function jsonTextDepth(text: string, limit = Infinity): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      depth++;
      if (depth > max) {
        max = depth;
        if (max > limit) return max;
      }
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return max;
}

/** Text the platform can store: no NUL, no unpaired surrogate. The base of every string field of a request. */
export const SafeText = z.string().refine((s) => textProblem(s) === null, { error: (issue) => textProblem(String(issue.input)) ?? "invalid text" });

/** A workbook, report or folder name: 1 to 255 characters after trimming, on every path that writes one. */
export const NAME_MAX = 255;
export const Name = SafeText.trim().min(1).max(NAME_MAX);

/** A title or label shown beside a name. */
export const Title = SafeText.max(NAME_MAX);
/** A description: free text, bounded. */
export const DESCRIPTION_MAX = 10_000;
export const Description = SafeText.max(DESCRIPTION_MAX);

/** Code-like text stored as given (SQL, a chart spec, app files, data model YAML). */
export const LONG_TEXT_MAX = 512 * 1024;
export const LongText = SafeText.max(LONG_TEXT_MAX);

/** An absolute URL (a picture), as safe text. */
export const SafeUrl = z.url().refine((s) => textProblem(s) === null, { error: (issue) => textProblem(String(issue.input)) ?? "invalid text" });

/** A JSON object stored as given (meta, securityContext…): safe text in every key and value, at most MAX_JSON_DEPTH deep. */
export const SafeJsonObject = z.record(z.string(), z.unknown()).check((ctx) => {
  const problem = jsonProblem(ctx.value);
  if (problem) ctx.issues.push({ code: "custom", path: problem.path, message: problem.message, input: ctx.value });
});

/** A JSON object as the API returns it (response shapes); requests use SafeJsonObject. */
export const FreeFormObject = z.record(z.string(), z.unknown());

/** An id or foreign key in a JSON body: a whole number that fits the int4 column. */
export const Id = z.number().int().min(1).max(INT4_MAX, `must be at most ${INT4_MAX} (an id)`);

const DECIMAL_ID = /^[1-9][0-9]{0,9}$/;

/**
 * An id in a path or query string: decimal digits only (no sign, space, exponent, fraction,
 * leading zero or hex), within int4. Documented as an integer.
 */
export const IdParam = z
  .string()
  .regex(DECIMAL_ID, `must be a whole number in decimal digits, 1 to ${INT4_MAX}`)
  .transform(Number)
  .pipe(z.number().max(INT4_MAX, `must be at most ${INT4_MAX}`))
  .meta({ type: "integer", minimum: 1, maximum: INT4_MAX });

/** A whole number in a query string, strictly decimal, between `min` and `max`. */
export function QueryInt(min: number, max: number) {
  return z
    .string()
    .regex(/^(0|[1-9][0-9]{0,9})$/, `must be a whole number in decimal digits, ${min} to ${max}`)
    .transform(Number)
    .pipe(z.number().min(min).max(max))
    .meta({ type: "integer", minimum: min, maximum: max });
}

/** Cursor page query: `first` (1..100, default 50) and an opaque `after` cursor. */
export const PageQuery = z.object({
  first: QueryInt(1, 100).optional(),
  after: SafeText.min(1).max(200).optional(),
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

/**
 * A PUT body that also takes back what the matching GET answered (read-modify-write): the
 * fields only the read shows — ids, timestamps, derived values, write-only markers such as
 * `hasPassword` — are accepted with any value and dropped before the service sees the input.
 * `read` is the GET's schema; every key of it that `input` does not have is read-only.
 */
export function acceptingReadBack<I extends z.ZodObject, R extends z.ZodObject>(input: I, read: R, id: string, description?: string) {
  const readOnly = Object.keys(read.shape).filter((k) => !(k in input.shape));
  const extra = Object.fromEntries(readOnly.map((k) => [k, z.unknown().optional().meta({ description: "Read-only (shown by GET): accepted and ignored." })]));
  return input
    .extend(extra)
    .meta({ id, ...(description ? { description } : {}) })
    .transform((v) => {
      const o: Record<string, unknown> = { ...v };
      for (const k of readOnly) delete o[k];
      return o as z.output<I>;
    });
}
