import { INT4_MAX, jsonProblem } from "../../schema/common";
import { badRequest } from "../domain/errors";

/** Opaque cursors: base64url of a small JSON value. */
export function encodeCursor(value: unknown): string {
  return Buffer.from(JSON.stringify(value), "utf8").toString("base64url");
}

/**
 * The value of a cursor this server handed out. A cursor is client input like any other: one
 * made up by hand must not carry text the database refuses or ids beyond the columns.
 */
export function decodeCursor<T>(cursor: string, check: (v: unknown) => v is T): T {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (jsonProblem(value) === null && check(value)) return value;
  } catch {
    // fall through
  }
  throw badRequest("Invalid cursor in 'after'", [{ path: ["after"], message: "not a cursor returned by this list" }]);
}

/** A whole number a cursor may compare an int4 column with. */
export const isCursorInt = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 0 && (v as number) <= INT4_MAX;

export const isIdCursor = (v: unknown): v is { id: number } => typeof v === "object" && v !== null && isCursorInt((v as { id: unknown }).id);

export const DEFAULT_PAGE_SIZE = 50;

/**
 * Builds a list page from rows fetched with `limit first + 1` after the cursor. `data` and
 * `count` are the deprecated fields, still filled (spec 9.3).
 */
export function pageOf<T, R>(rows: R[], opts: { first: number; hasPrevious: boolean; total: number; cursorOf: (row: R) => unknown; map: (row: R) => T }) {
  const hasNextPage = rows.length > opts.first;
  const pageRows = hasNextPage ? rows.slice(0, opts.first) : rows;
  const items = pageRows.map(opts.map);
  const first = pageRows[0];
  const last = pageRows[pageRows.length - 1];
  return {
    items,
    pageInfo: {
      hasNextPage,
      hasPreviousPage: opts.hasPrevious,
      ...(first ? { startCursor: encodeCursor(opts.cursorOf(first)) } : {}),
      ...(last ? { endCursor: encodeCursor(opts.cursorOf(last)) } : {}),
    },
    data: items,
    count: opts.total,
  };
}
