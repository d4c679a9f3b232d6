/**
 * Named prepared statements on either store, for hot paths whose SQL is fixed: the text is
 * written once, parsed and planned once per connection, and each call only binds its values.
 *
 * - **Postgres server** (a `pg` pool): the statement's fixed name, so `pg` sends Parse once per
 *   pooled connection and Bind/Execute afterwards (no text built or hashed per call).
 * - **PGlite**: its `query` uses the unnamed statement, so every call is parsed and planned
 *   again; here the statement is parsed once under its name and each call sends Bind, Describe,
 *   Execute and Sync in one `execProtocol` call (one crossing into the WebAssembly backend
 *   instead of four).
 * - **Anything else** (a drizzle transaction): the same text and values through `db.execute`,
 *   so a caller inside a transaction keeps its transaction.
 */
import { PGlite, parse, protocol } from "@electric-sql/pglite";

type BackendMessage = Parameters<typeof parse.parseResults>[0][number];
import { sql, type SQL } from "drizzle-orm";
import pg from "pg";
import { rowsOf, storeClientOf, type Db } from "./connection";
import { pgError } from "./pg-error";

/** A statement with `$1…$n` placeholders (each with a cast, so their types need no description). */
export interface PreparedStatement {
  readonly name: string;
  readonly text: string;
}

/** Values a statement binds: text, a number, or null (JSON goes as text with a `::jsonb` cast). */
export type BindValue = string | number | null;

const names = new Set<string>();

/** Declares a statement; its name must be unique in the process (a Postgres connection holds each name once). */
export function preparedStatement(name: string, text: string): PreparedStatement {
  if (names.has(name)) throw new Error(`prepared statement ${name} declared twice`);
  names.add(name);
  return { name, text };
}

/**
 * The statements parsed on each PGlite instance, with the description of their rows (null: no
 * rows), read once at Parse so that each call needs no Describe. A `DISCARD ALL` (a reused
 * instance) forgets them: see runOnPglite.
 */
const parsedOn = new WeakMap<object, Map<string, BackendMessage | null>>();

async function runOnPglite<T>(client: PGlite, stmt: PreparedStatement, values: BindValue[]): Promise<T[]> {
  let parsed = parsedOn.get(client);
  if (!parsed) parsedOn.set(client, (parsed = new Map()));
  const known = parsed;
  const { serialize } = protocol;
  // Inside a transaction the data directory is synced at its COMMIT, as PGlite's own `query` does.
  const send = async (parts: Uint8Array[]) => (await client.execProtocol(Buffer.concat(parts), { syncToFs: !client.isInTransaction() })).messages;
  const prepare = async () => {
    const messages = await send([serialize.parse({ name: stmt.name, text: stmt.text }), serialize.describe({ type: "S", name: stmt.name }), serialize.sync()]);
    const rows = messages.find((m) => m.name === "rowDescription") ?? null;
    known.set(stmt.name, rows);
    return rows;
  };
  const bound = values.map((v) => (v === null ? null : String(v)));
  const execute = async (rows: BackendMessage | null) => {
    const messages = await send([serialize.bind({ statement: stmt.name, values: bound }), serialize.execute({}), serialize.sync()]);
    return (parse.parseResults(rows ? [rows, ...messages] : messages, client.parsers)[0]?.rows ?? []) as T[];
  };
  return client.runExclusive(async () => {
    const described = known.get(stmt.name);
    try {
      return await execute(described === undefined ? await prepare() : described);
    } catch (err) {
      // 26000: the session forgot it (DISCARD ALL on a reused instance): parse it again, once.
      if (described === undefined || pgError(err).code !== "26000") throw err;
      known.delete(stmt.name);
      return execute(await prepare());
    }
  });
}

/** The statement as a drizzle SQL (for a transaction): its text with each `$n` bound to the value. */
function asSql(stmt: PreparedStatement, values: BindValue[]): SQL {
  const parts = stmt.text.split(/\$(\d+)/);
  const chunks: SQL[] = [];
  parts.forEach((part, i) => chunks.push(i % 2 === 0 ? sql.raw(part) : sql`${values[Number(part) - 1] ?? null}`));
  return sql.join(chunks);
}

/** Runs a prepared statement on the store behind `db`; its rows, with each store's usual type parsing. */
export async function runPrepared<T>(db: Db, stmt: PreparedStatement, values: BindValue[]): Promise<T[]> {
  const client = storeClientOf(db);
  if (client instanceof pg.Pool) return (await client.query({ name: stmt.name, text: stmt.text, values })).rows as T[];
  if (client instanceof PGlite) return runOnPglite<T>(client, stmt, values);
  return rowsOf<T>(db, asSql(stmt, values));
}

/** Whether `db` is the store itself (a pool or a PGlite instance), not a transaction on it. */
export function runsOutsideTransaction(db: Db): boolean {
  return storeClientOf(db) !== null;
}
