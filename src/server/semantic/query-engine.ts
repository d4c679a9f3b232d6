import type { DataSource, ResultRow } from "../datasources/data-source";
import { QueryCancelledError } from "../datasources/data-source";
import { decideAccess } from "./access-policy";
import { dialectFor } from "./compiler/dialects";
import type { BuiltRollup } from "./compiler/rollup-plan";
import { compileValidatedQuery, type CompiledQuery, type FillMissingRows, type PeriodComparison, type QueryAnnotation } from "./compile-query";
import type { DataModel, Dimension } from "./data-model";
import { addToWallTime, instantToWallTime, truncateWallTime, zonedWallTimeToInstant } from "./date-range";
import { QueryValidationError } from "./errors";
import { resolveMember } from "./member-resolution";
import type { DataModelMetaMember, DataModelMetaSource, FilterValue, SemanticQuery } from "../../schema/semantic-query";
import type { SecurityContext } from "./security-context";
import { validateQuery } from "./validate-query";

/** Options of `createQueryEngine`. */
export interface QueryEngineOptions {
  model: DataModel;
  dataSource: DataSource;
  /** How long a result stays cached; default 60 000 ms; 0 disables the cache. */
  cacheTtlMs?: number;
  /** Cached results kept at most (least recently used go first); default 500. */
  maxEntries?: number;
  /** Compiled queries kept at most (least recently used go first); default 1000; 0 disables the compile cache. */
  maxCompiledEntries?: number;
  /** Clock for relative date ranges and cache expiry; default `() => new Date()`. */
  now?: () => Date;
  /** The rollups built now (read at each query); a query one of them covers reads it instead of the cube. Default none. */
  rollups?: () => readonly BuiltRollup[];
}

/** Options of `QueryEngine.load`. */
export interface LoadOptions {
  securityContext: SecurityContext;
  /** Skip the cache read (a refresh); the fresh result is cached. */
  bypassCache?: boolean;
  signal?: AbortSignal;
  timeoutMs?: number;
  fillMissingRows?: FillMissingRows | null;
  periodComparisons?: PeriodComparison[] | null;
  /** Include the compiled SQL in the result (creator mode). */
  includeSql?: boolean;
  /** false: read the cubes' rows even where a built rollup covers the query. Default true. */
  useRollups?: boolean;
}

export interface LoadResult {
  data: ResultRow[];
  annotation: QueryAnnotation;
  sql?: { sql: string; params: (string | number | boolean)[] };
  /** Whether the rows came from the cache (or a concurrent identical query). */
  fromCache: boolean;
}

/** A member of the meta answer (one schema with the API's, src/schema/semantic-query.ts). */
export type MetaMember = DataModelMetaMember;
/** A view of the meta answer. */
export type MetaSource = DataModelMetaSource;

export interface DistinctValuesOptions {
  /** Case-insensitive substring to look for. */
  search?: string;
  /** At most this many values; default 100, max 1000. */
  limit?: number;
}

export interface QueryEngine {
  /** The data model queries compile against (the workbook API checks calculated fields with it). */
  readonly model: DataModel;
  load(query: SemanticQuery | unknown, options: LoadOptions): Promise<LoadResult>;
  sql(
    query: SemanticQuery | unknown,
    options: Omit<LoadOptions, "bypassCache" | "signal" | "timeoutMs">,
  ): { sql: string; params: (string | number | boolean)[] };
  /** Public views and cubes the viewer can see rows of, with their members. */
  meta(securityContext: SecurityContext): { sources: MetaSource[] };
  /** Values of one dimension for a filter picker; access policies apply as for any query. */
  distinctValues(
    member: string,
    options: DistinctValuesOptions,
    load: Omit<LoadOptions, "fillMissingRows" | "periodComparisons" | "includeSql">,
  ): Promise<FilterValue[]>;
  clearCache(): void;
}

interface CacheEntry {
  rows: ResultRow[];
  expiresAt: number;
}

/** Longer keys (the query, context and options as JSON) are not cached: 1000 entries stay within a few tens of MB. */
const MAX_COMPILE_KEY_CHARS = 16_384;

interface CompiledEntry {
  compiled: CompiledQuery;
  /** The compile read the clock only through the calendar day in the query's time zone: it holds from this instant… */
  validFrom: number;
  /** …until this one (the next midnight there). */
  validUntil: number;
}

interface Flight {
  promise: Promise<ResultRow[]>;
  controller: AbortController;
  waiters: number;
}

/**
 * The exact text of a plain JSON value, keys in their order (an `order` object's key order is
 * the ORDER BY's), or null when the value is not plain JSON (a Date, NaN, a class instance, …):
 * such input is compiled every time rather than risk two different inputs sharing a key.
 * @internal exported for its tests
 */
export function exactJsonKey(value: unknown): string | null {
  let plain = true;
  const text = JSON.stringify(value, function (this: Record<string, unknown>, key, v: unknown) {
    // A toJSON (a Date's) turned the value into something else: not plain.
    if (this[key] !== v) plain = false;
    switch (typeof v) {
      case "string":
      case "boolean":
      case "undefined":
        return v;
      case "number":
        if (!Number.isFinite(v)) plain = false;
        return v;
      case "object":
        if (v === null) return v;
        if (Array.isArray(v)) {
          // JSON writes an undefined item as null: [undefined] and [null] must not share a key.
          if (v.includes(undefined)) plain = false;
          return v;
        }
        if (Object.getPrototypeOf(v) !== Object.prototype && Object.getPrototypeOf(v) !== null) plain = false;
        return v;
      default:
        // A function, symbol or bigint: JSON would drop it or fail.
        plain = false;
        return null;
    }
  });
  return plain && text !== undefined ? text : null;
}

function stableStringify(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(",")}]`;
  if (value && typeof value === "object") {
    return `{${Object.keys(value)
      .sort()
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${stableStringify((value as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value);
}

/**
 * A truncated time dimension's column is `<member>.<granularity>`; rows also get it under the
 * plain member name (when the query has no column of that name), so a chart bound to
 * `sales.created_at` keeps working when a time-grain control changes the granularity.
 */
function withPlainTimeColumns(rows: ResultRow[], annotation: QueryAnnotation, columns: string[]): ResultRow[] {
  const aliases: [string, string][] = [];
  const taken = new Set(columns);
  for (const [column, a] of Object.entries(annotation.timeDimensions)) {
    const granularity = (a as { granularity?: string }).granularity;
    if (!granularity || !column.endsWith(`.${granularity}`)) continue;
    const plain = column.slice(0, -granularity.length - 1);
    if (taken.has(plain)) continue;
    taken.add(plain);
    aliases.push([plain, column]);
  }
  if (!aliases.length) return rows;
  return rows.map((row) => {
    const out: ResultRow = { ...row };
    for (const [plain, column] of aliases) out[plain] = row[column];
    return out;
  });
}

/** Boolean dimensions of an engine without a boolean type (MySQL: 1 and 0) read as true and false. */
function withBooleans(rows: ResultRow[], annotation: QueryAnnotation): ResultRow[] {
  const columns = Object.entries(annotation.dimensions)
    .filter(([, a]) => a.type === "boolean")
    .map(([column]) => column);
  if (!columns.length) return rows;
  return rows.map((row) => {
    const out: ResultRow = { ...row };
    for (const c of columns) if (typeof out[c] === "number") out[c] = out[c] !== 0;
    return out;
  });
}

/**
 * Validates, compiles (with row-level security) and runs semantic queries on one data source,
 * with a result cache keyed by (SQL, parameters, security context) and single-flight: identical
 * queries running at the same time hit the database once.
 */
export function createQueryEngine(options: QueryEngineOptions): QueryEngine {
  const { model, dataSource } = options;
  const { booleansAsIntegers } = dialectFor(dataSource.dialect);
  const ttl = options.cacheTtlMs ?? 60_000;
  const maxEntries = options.maxEntries ?? 500;
  const now = options.now ?? (() => new Date());
  const maxCompiled = options.maxCompiledEntries ?? 1000;
  const cache = new Map<string, CacheEntry>();
  const flights = new Map<string, Flight>();
  const compiledCache = new Map<string, CompiledEntry>();

  /**
   * Validates and compiles, through the compile cache. The engine holds one version of one
   * model on one data source (a changed model is a new engine, with an empty cache), so the key
   * is everything else the compile reads: the query as sent, the caller's whole security context
   * (row-level security is written into the SQL), fill and comparison options, and the clock —
   * which the compile reads only to resolve relative date ranges, through the calendar day in
   * the query's time zone (date-range.ts `resolveRelativeRange`), so an entry holds until the
   * next midnight there. Callers share the cached result: it is never changed after compiling.
   */
  function compile(query: unknown, o: Pick<LoadOptions, "securityContext" | "fillMissingRows" | "periodComparisons" | "useRollups">): CompiledQuery {
    const at = now();
    const rollups = o.useRollups === false ? [] : (options.rollups?.() ?? []);
    // The built tables are part of the key: a new build (a new table) compiles again.
    const tables = rollups.map((r) => r.table);
    let key = maxCompiled > 0 ? exactJsonKey([query, o.securityContext, o.fillMissingRows ?? null, o.periodComparisons ?? null, tables]) : null;
    // A query of thousands of filter values is compiled each time: a full cache of such keys would hold too much memory.
    if (key !== null && key.length > MAX_COMPILE_KEY_CHARS) key = null;
    if (key !== null) {
      const hit = compiledCache.get(key);
      const t = at.getTime();
      if (hit && t >= hit.validFrom && t < hit.validUntil) {
        compiledCache.delete(key);
        compiledCache.set(key, hit);
        return hit.compiled;
      }
    }
    const validated = validateQuery(model, query, { now: at });
    const compiled = compileValidatedQuery(model, validated, {
      dialect: dataSource.dialect,
      securityContext: o.securityContext,
      now: at,
      fillMissingRows: o.fillMissingRows,
      periodComparisons: o.periodComparisons,
      rollups,
    });
    if (key !== null) {
      const today = truncateWallTime(instantToWallTime(at, validated.timezone), "day");
      compiledCache.delete(key);
      compiledCache.set(key, {
        compiled,
        validFrom: zonedWallTimeToInstant(today, validated.timezone).getTime(),
        validUntil: zonedWallTimeToInstant(addToWallTime(today, 1, "day"), validated.timezone).getTime(),
      });
      while (compiledCache.size > maxCompiled) compiledCache.delete(compiledCache.keys().next().value!);
    }
    return compiled;
  }

  function remember(key: string, rows: ResultRow[]) {
    if (ttl <= 0) return;
    cache.delete(key);
    cache.set(key, { rows, expiresAt: now().getTime() + ttl });
    while (cache.size > maxEntries) cache.delete(cache.keys().next().value!);
  }

  function join(flight: Flight, signal?: AbortSignal): Promise<ResultRow[]> {
    flight.waiters++;
    if (!signal) return flight.promise;
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        // The shared query stops only when nobody is waiting for it any more.
        if (--flight.waiters === 0) flight.controller.abort();
        reject(new QueryCancelledError());
      };
      if (signal.aborted) return onAbort();
      signal.addEventListener("abort", onAbort, { once: true });
      flight.promise.then(
        (rows) => {
          signal.removeEventListener("abort", onAbort);
          resolve(rows);
        },
        (e) => {
          signal.removeEventListener("abort", onAbort);
          reject(e);
        },
      );
    });
  }

  async function load(query: unknown, o: LoadOptions): Promise<LoadResult> {
    const compiled = compile(query, o);
    const key = stableStringify([compiled.sql, compiled.params, o.securityContext]);
    const sql = o.includeSql ? { sql: compiled.sql, params: compiled.params } : undefined;
    if (!o.bypassCache) {
      const hit = cache.get(key);
      if (hit && hit.expiresAt > now().getTime()) {
        cache.delete(key);
        cache.set(key, hit);
        return { data: hit.rows, annotation: compiled.annotation, sql, fromCache: true };
      }
      const flight = flights.get(key);
      if (flight) return { data: await join(flight, o.signal), annotation: compiled.annotation, sql, fromCache: true };
    }
    const controller = new AbortController();
    const flight: Flight = {
      controller,
      waiters: 0,
      promise: dataSource
        .query(compiled.sql, compiled.params, { signal: controller.signal, timeoutMs: o.timeoutMs })
        .then((raw) => {
          const rows = withPlainTimeColumns(booleansAsIntegers ? withBooleans(raw, compiled.annotation) : raw, compiled.annotation, compiled.columns);
          remember(key, rows);
          return rows;
        })
        .finally(() => {
          if (flights.get(key) === flight) flights.delete(key);
        }),
    };
    flight.promise.catch(() => {});
    flights.set(key, flight);
    return { data: await join(flight, o.signal), annotation: compiled.annotation, sql, fromCache: false };
  }

  // The model does not change for the life of an engine: each view's and cube's members are
  // resolved once; a viewer's meta is the sources their access policies let them see. The
  // sources are shared between callers, who copy what they change (never sort or push in place).
  let described: { policy: Parameters<typeof decideAccess>[0]; source: MetaSource }[] | undefined;
  function describeSources() {
    const out: NonNullable<typeof described> = [];
    for (const view of model.views.values()) {
      if (!view.public) continue;
      const members = [...view.members.keys()].map((m) => resolveMember(model, `${view.name}.${m}`)!);
      out.push({
        policy: view.accessPolicy,
        source: Object.freeze({
          name: view.name,
          kind: "view" as const,
          title: view.title,
          ...(view.description ? { description: view.description } : {}),
          measures: members.filter((m) => m.kind === "measure").map(metaMember),
          dimensions: members.filter((m) => m.kind === "dimension").map(metaMember),
        }),
      });
    }
    for (const cube of model.cubes.values()) {
      if (!cube.public) continue;
      out.push({
        policy: cube.accessPolicy,
        source: Object.freeze({
          name: cube.name,
          kind: "cube" as const,
          title: cube.title,
          ...(cube.description ? { description: cube.description } : {}),
          measures: [...cube.measures.keys()].map((m) => metaMember(resolveMember(model, `${cube.name}.${m}`)!)),
          dimensions: [...cube.dimensions.keys()].map((m) => metaMember(resolveMember(model, `${cube.name}.${m}`)!)),
        }),
      });
    }
    return out;
  }

  function meta(securityContext: SecurityContext): { sources: MetaSource[] } {
    described ??= describeSources();
    return { sources: described.filter((d) => decideAccess(d.policy, securityContext).kind !== "none").map((d) => d.source) };
  }

  return {
    model,
    load,
    sql(query, o) {
      const c = compile(query, o);
      return { sql: c.sql, params: c.params };
    },
    meta,
    async distinctValues(member, o, loadOptions) {
      const limit = o.limit ?? 100;
      if (!Number.isInteger(limit) || limit < 1 || limit > 1000) {
        throw new QueryValidationError([{ path: ["limit"], code: "limit_out_of_range", message: "limit must be an integer from 1 to 1000" }]);
      }
      const m = resolveMember(model, member);
      if (!m || !m.source.public) throw new QueryValidationError([{ path: ["member"], code: "unknown_member", message: `unknown member "${member}"` }]);
      if (m.kind !== "dimension") {
        throw new QueryValidationError([{ path: ["member"], code: "wrong_member_kind", message: `${member} is a measure; values come from dimensions` }]);
      }
      const filters =
        o.search !== undefined && o.search !== "" && (m.def as Dimension).type === "string"
          ? [{ member, operator: "contains" as const, values: [o.search] }]
          : [];
      const result = await load({ dimensions: [member], filters, order: [[member, "asc"]], limit }, loadOptions);
      return result.data.map((row) => row[member] as FilterValue);
    },
    clearCache() {
      cache.clear();
      compiledCache.clear();
    },
  };
}

function metaMember(m: NonNullable<ReturnType<typeof resolveMember>>): MetaMember {
  const out: MetaMember = {
    name: m.name,
    title: m.title,
    shortTitle: m.shortTitle,
    type: m.kind === "measure" ? "number" : (m.def as Dimension).type,
  };
  if (m.def.format) out.format = m.def.format;
  if (m.def.description) out.description = m.def.description;
  if (m.kind === "measure") out.measureType = m.def.type;
  if (m.kind === "dimension" && (m.def as Dimension).primaryKey) out.primaryKey = true;
  if (m.def.meta) out.meta = m.def.meta;
  return out;
}
