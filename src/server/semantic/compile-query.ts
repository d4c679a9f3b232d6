import { decideAccess, type AccessDecision, type ResolvedPolicyFilter } from "./access-policy";
import { IDENTIFIER, SQL_REFERENCE, type Cube, type DataModel, type Dimension, type Measure, type MemberFormat, type View } from "./data-model";
import {
  OFFSET_WINDOW,
  addToWallTime,
  formatWallTime,
  isUtcLike,
  parseAbsoluteDate,
  resolveDateRange,
  truncateWallTime,
  zoneOffsetSegments,
  zonedWallTimeToInstant,
  type OffsetSegment,
  type ResolvedRange,
} from "./date-range";
import { QueryValidationError, type QueryProblem } from "./errors";
import { resolveMember, type ResolvedMember } from "./member-resolution";
import type { FilterValue, Granularity, MemberFilter, QueryFilter, SemanticQuery, ValidatedQuery } from "../../schema/semantic-query";
import type { SecurityContext } from "./security-context";
import { collectFilterMembers, normalizeFilter, validateQuery } from "./validate-query";

export type SqlDialect = "duckdb" | "postgres";

/** ReportSnapshot.fillMissingRows: one row per time bucket (× other dimension values). */
export interface FillMissingRows {
  /** A time dimension of the query (with a granularity). */
  member: string;
  /** Dimensions not to cross-join; filled rows carry null for them. */
  excludedDimensions?: string[] | null;
}

export const comparisonUnits = ["day", "week", "month", "quarter", "year"] as const;

/** ReportSnapshot.periodComparisons entry: a measure over a shifted time dimension. */
export interface PeriodComparison {
  /** A measure of the query. */
  measure: string;
  /** A time dimension of the query (with a granularity). */
  timeDimension: string;
  /** How far back to look; a positive amount looks into the past, a negative one ahead. */
  offset: { amount: number; unit: string };
  /**
   * Column names: [previous value, change (current − previous), relative change].
   * Only the first is produced unless more are named; default `<measure>_prev_<unit>`.
   */
  outputs?: string[] | null;
}

/** Options of `compileQuery`. */
export interface CompileQueryOptions {
  /** SQL flavour of the data source. */
  dialect: SqlDialect;
  /** Viewer; access policies of every cube and view in the query are applied for it. */
  securityContext: SecurityContext;
  /** Clock for relative date ranges; defaults to now. */
  now?: Date;
  fillMissingRows?: FillMissingRows | null;
  periodComparisons?: PeriodComparison[] | null;
}

export interface MemberAnnotation {
  title: string;
  shortTitle: string;
  /** "number" for measures; the dimension type otherwise. */
  type: "string" | "number" | "boolean" | "time";
  format?: MemberFormat;
  /** Aggregation of a measure (count, sum, …). */
  measureType?: Measure["type"];
  granularity?: Granularity;
  description?: string;
  meta?: Record<string, unknown>;
}

export interface PeriodComparisonAnnotation extends MemberAnnotation {
  measure: string;
  output: "previous" | "change" | "percent_change";
}

/** Per result column: titles, type and format, keyed by the column name. */
export interface QueryAnnotation {
  measures: Record<string, MemberAnnotation>;
  dimensions: Record<string, MemberAnnotation>;
  /** Keyed by `<member>.<granularity>`, the column name of a truncated time dimension. */
  timeDimensions: Record<string, MemberAnnotation>;
  periodComparisons: Record<string, PeriodComparisonAnnotation>;
}

export interface CompiledQuery {
  sql: string;
  /** Positional values for $1, $2, … (both dialects). */
  params: (string | number | boolean)[];
  annotation: QueryAnnotation;
  /** Result column names in order. */
  columns: string[];
}

export function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

class Params {
  readonly values: (string | number | boolean)[] = [];
  add(value: string | number | boolean): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

const INTERVALS: Record<Granularity, string> = {
  second: "INTERVAL '1 second'",
  minute: "INTERVAL '1 minute'",
  hour: "INTERVAL '1 hour'",
  day: "INTERVAL '1 day'",
  week: "INTERVAL '7 days'",
  month: "INTERVAL '1 month'",
  quarter: "INTERVAL '3 months'",
  year: "INTERVAL '1 year'",
};

function intervalLiteral(amount: number, unit: (typeof comparisonUnits)[number]): string {
  // amount is a validated integer, so inlining it cannot carry SQL.
  const [n, u] = unit === "quarter" ? [amount * 3, "months"] : unit === "week" ? [amount * 7, "days"] : [amount, `${unit}s`];
  return `INTERVAL '${n} ${u}'`;
}

interface TimeColumn {
  member: ResolvedMember;
  granularity: Granularity;
  column: string;
}

interface Plan {
  dialect: SqlDialect;
  params: Params;
  tz: string;
  readonly tzParam: string;
  now: Date;
}

/**
 * Compiles a semantic query into one SQL statement with positional parameters. The query is
 * validated first (throws `QueryValidationError`); the viewer's access policies are part of
 * the statement, so nothing that runs this SQL can skip them.
 */
export function compileQuery(model: DataModel, input: SemanticQuery | unknown, options: CompileQueryOptions): CompiledQuery {
  const now = options.now ?? new Date();
  const query = validateQuery(model, input, { now });
  return compileValidatedQuery(model, query, { ...options, now });
}

/** @internal Compiles a query already returned by `validateQuery`. */
export function compileValidatedQuery(model: DataModel, query: ValidatedQuery, options: CompileQueryOptions & { now: Date }): CompiledQuery {
  const problems: QueryProblem[] = [];
  const params = new Params();
  // The zone is bound once, on first use: an unused parameter has no type in Postgres.
  let tzParam: string | undefined;
  const plan: Plan = {
    dialect: options.dialect,
    params,
    tz: query.timezone,
    get tzParam() {
      return (tzParam ??= `CAST(${params.add(query.timezone)} AS TEXT)`);
    },
    now: options.now,
  };
  const ctx = options.securityContext;

  const measures = query.measures.map((n) => resolveMember(model, n)!);
  const dimensions = query.dimensions.map((n) => resolveMember(model, n)!);
  const timeColumns: TimeColumn[] = query.timeDimensions
    .filter((t) => t.granularity)
    .map((t) => ({ member: resolveMember(model, t.dimension)!, granularity: t.granularity!, column: `${t.dimension}.${t.granularity}` }));
  const filterMembers = collectFilterMembers(query.filters).map((n) => resolveMember(model, n)!);
  const used: ResolvedMember[] = [...measures, ...dimensions, ...timeColumns.map((t) => t.member), ...filterMembers];
  for (const td of query.timeDimensions) used.push(resolveMember(model, td.dimension)!);

  // Access policies: the view's first (its filters may need joins), then each cube joined.
  const view = used.find((m) => m.source.kind === "view")?.source as View | undefined;
  const viewDecision: AccessDecision = view ? decideAccess(view.accessPolicy, ctx) : { kind: "all" };
  const viewPolicyMembers: ResolvedMember[] = [];
  if (view && viewDecision.kind === "rows") {
    for (const alt of viewDecision.alternatives) {
      for (const name of collectPolicyMembers(alt)) viewPolicyMembers.push(resolveMember(model, qualify(view.name, name))!);
    }
  }

  const tree = view
    ? viewJoinTree(model, view, [...used, ...viewPolicyMembers])
    : cubeJoinTree(model, used, problems);
  if (!tree) throw new QueryValidationError(problems);

  // Fan-out: a measure whose rows are repeated by a to-many join is counted by primary key
  // where that is exact (count); sums and averages would be wrong, so they are refused.
  const multiplied = new Set<string>();
  const measureFilterMembers = filterMembers.filter((m) => m.kind === "measure");
  for (const m of [...measures, ...measureFilterMembers]) {
    if (isMultiplied(model, tree, m.cube.name)) {
      multiplied.add(m.cube.name);
      const unsafe = unsafeUnderFanOut(m.cube, m.def as Measure);
      if (unsafe) {
        problems.push({
          path: query.measures.includes(m.name) ? ["measures", query.measures.indexOf(m.name)] : ["filters"],
          code: "fan_out",
          message: `${m.name} would be multiplied by a one-to-many join in this query (${unsafe}); query it without the joined members`,
        });
      }
    }
  }

  // Options: fillMissingRows and periodComparisons.
  const fill = options.fillMissingRows ?? undefined;
  let fillColumn: TimeColumn | undefined;
  let excluded = new Set<string>();
  if (fill) {
    fillColumn = timeColumns.find((t) => t.member.name === fill.member || t.column === fill.member);
    if (!fillColumn) problems.push({ path: ["fillMissingRows", "member"], code: "bad_option", message: `fillMissingRows.member "${fill.member}" must be a time dimension of the query with a granularity` });
    (fill.excludedDimensions ?? []).forEach((d, i) => {
      if (!query.dimensions.includes(d) && !timeColumns.some((t) => t.column === d || t.member.name === d)) {
        problems.push({ path: ["fillMissingRows", "excludedDimensions", i], code: "bad_option", message: `"${d}" is not a dimension of the query` });
      }
    });
    excluded = new Set((fill.excludedDimensions ?? []).flatMap((d) => [d, ...timeColumns.filter((t) => t.member.name === d).map((t) => t.column)]));
  }
  const comparisons = (options.periodComparisons ?? []).map((pc, i) => {
    const path = ["periodComparisons", i];
    const tc = timeColumns.find((t) => t.member.name === pc.timeDimension || t.column === pc.timeDimension);
    if (!query.measures.includes(pc.measure)) problems.push({ path: [...path, "measure"], code: "bad_option", message: `"${pc.measure}" is not a measure of the query` });
    if (!tc) problems.push({ path: [...path, "timeDimension"], code: "bad_option", message: `"${pc.timeDimension}" is not a time dimension of the query with a granularity` });
    const unit = pc.offset?.unit as (typeof comparisonUnits)[number];
    if (!(comparisonUnits as readonly string[]).includes(unit)) problems.push({ path: [...path, "offset", "unit"], code: "bad_option", message: `offset.unit must be one of ${comparisonUnits.join(", ")}` });
    if (!Number.isInteger(pc.offset?.amount) || pc.offset.amount === 0 || Math.abs(pc.offset.amount) > 1000) {
      problems.push({ path: [...path, "offset", "amount"], code: "bad_option", message: "offset.amount must be a non-zero integer" });
    }
    const suffix = Math.abs(pc.offset?.amount ?? 1) === 1 ? unit : `${Math.abs(pc.offset?.amount ?? 1)}_${unit}s`;
    const defaultName = `${pc.measure}_${(pc.offset?.amount ?? 1) > 0 ? "prev" : "next"}_${suffix}`;
    const outputs = pc.outputs && pc.outputs.length ? pc.outputs : [defaultName];
    if (outputs.length > 3) problems.push({ path: [...path, "outputs"], code: "bad_option", message: "at most three outputs: previous value, change, relative change" });
    outputs.forEach((o, k) => {
      if (!/^[_a-zA-Z][_a-zA-Z0-9]*(\.[_a-zA-Z][_a-zA-Z0-9]*)?$/.test(o) || o.length > 60) {
        problems.push({ path: [...path, "outputs", k], code: "bad_option", message: `output name "${o}" must look like a member name` });
      }
    });
    return { pc, tc, unit, outputs };
  });
  const outputNames = new Set<string>([...query.measures, ...query.dimensions, ...timeColumns.map((t) => t.column)]);
  comparisons.forEach((c, i) =>
    c.outputs.forEach((o, k) => {
      if (outputNames.has(o)) problems.push({ path: ["periodComparisons", i, "outputs", k], code: "bad_option", message: `output name "${o}" is already a column` });
      outputNames.add(o);
    }),
  );
  if (problems.length > 0) throw new QueryValidationError(problems);

  // FROM with joins.
  const alias = (cube: string) => quoteIdentifier(cube);
  const fromLines: string[] = [`FROM ${tableSql(model.cubes.get(tree.root)!)} AS ${alias(tree.root)}`];
  for (const cubeName of tree.order) {
    if (cubeName === tree.root) continue;
    const parent = tree.parent.get(cubeName)!;
    const join = model.cubes.get(parent)!.joins.get(cubeName)!;
    const on = join.sql.replace(SQL_REFERENCE, (_t, head: string) => (head === "CUBE" ? alias(parent) : alias(head)));
    fromLines.push(`LEFT JOIN ${tableSql(model.cubes.get(cubeName)!)} AS ${alias(cubeName)} ON ${on}`);
  }

  const sqlOf = (m: ResolvedMember) => memberSql(m.cube, m.def, multiplied.has(m.cube.name));
  const utc = isUtcLike(plan.tz);
  /**
   * Wall time in the query zone of a time member's SQL `x`. Naive TIMESTAMP columns hold UTC
   * (the session zone of both data sources), so CAST(x AS TIMESTAMP) is the column itself for
   * them (and a session-zone conversion for TIMESTAMPTZ). In UTC that is the wall time. Other
   * zones in DuckDB: the zone's offsets over the rows' range are worked out at compile time
   * and picked per row by a CASE over constant instants (integer arithmetic, no per-row zone
   * lookup); rows outside that range fall back to timezone(). Postgres converts per row with
   * AT TIME ZONE, which is cheap there.
   */
  const wall = (x: string, range?: { from: Date; to: Date }) => {
    const naive = `CAST(${x} AS TIMESTAMP)`;
    if (utc) return naive;
    if (plan.dialect === "postgres") return `(CAST(${x} AS TIMESTAMPTZ) AT TIME ZONE ${plan.tzParam})`;
    const fallback = `timezone(${plan.tzParam}, CAST(${x} AS TIMESTAMPTZ))`;
    const from = range?.from ?? OFFSET_WINDOW.from;
    const to = range?.to ?? OFFSET_WINDOW.to;
    const segments = zoneOffsetSegments(plan.tz, from, to);
    if (!segments.length) return fallback;
    const lo = segments[0]!.start;
    const hi = new Date(Math.min(to.getTime(), OFFSET_WINDOW.to.getTime()));
    return `CASE WHEN ${naive} >= ${timestampLiteral(lo)} AND ${naive} < ${timestampLiteral(hi)} THEN make_timestamp(epoch_us(${naive}) + ${offsetTree(naive, segments)}) ELSE ${fallback} END`;
  };

  // WHERE: access policies, then query filters, then time dimension ranges.
  const accessWhere: string[] = [];
  const pushDecision = (decision: AccessDecision, qualifyName: (n: string) => string) => {
    if (decision.kind === "all") return;
    if (decision.kind === "none") {
      accessWhere.push("FALSE");
      return;
    }
    const alts = decision.alternatives.map((alt) =>
      alt.length === 0 ? "TRUE" : alt.map((f) => compilePolicyFilter(f, qualifyName)).join(" AND "),
    );
    accessWhere.push(alts.length === 1 ? `(${alts[0]})` : `(${alts.map((a) => `(${a})`).join(" OR ")})`);
  };
  if (view) pushDecision(viewDecision, (n) => qualify(view.name, n));
  for (const cubeName of tree.order) {
    const cube = model.cubes.get(cubeName)!;
    pushDecision(decideAccess(cube.accessPolicy, ctx), (n) => qualify(cube.name, n));
  }

  function compilePolicyFilter(f: ResolvedPolicyFilter, qualifyName: (n: string) => string): string {
    if ("never" in f) return "FALSE";
    if ("or" in f) return `(${f.or.map((g) => compilePolicyFilter(g, qualifyName)).join(" OR ")})`;
    if ("and" in f) return `(${f.and.map((g) => compilePolicyFilter(g, qualifyName)).join(" AND ")})`;
    const member = resolveMember(model, qualifyName(f.member))!;
    let ok = true;
    const values = normalizeFilter(member, f, [], { add: () => (ok = false) });
    // Attribute values of the wrong type hide rows rather than fail open.
    if (!ok || !values) return "FALSE";
    return compileMemberFilter(member, { ...f, values }, memberSql(member.cube, member.def, false));
  }

  const filterWhere: string[] = [];
  const having: string[] = [];
  for (const f of query.filters) {
    const members = collectFilterMembers([f]).map((n) => resolveMember(model, n)!);
    const target = members.some((m) => m.kind === "measure") ? having : filterWhere;
    target.push(compileFilterTree(f));
  }
  function compileFilterTree(f: QueryFilter): string {
    if ("or" in f) return `(${f.or.map(compileFilterTree).join(" OR ")})`;
    if ("and" in f) return `(${f.and.map(compileFilterTree).join(" AND ")})`;
    const m = resolveMember(model, f.member)!;
    return compileMemberFilter(m, f, sqlOf(m));
  }

  // Time bounds are naive UTC TIMESTAMPs compared with the raw column: a TIMESTAMP column
  // compares as is (and can skip row groups by their min/max); for a TIMESTAMPTZ column the
  // database casts the constant once (session zone UTC), never the column.
  function bindInstant(instant: Date): string {
    return `CAST(${params.add(naiveUtc(instant))} AS TIMESTAMP)`;
  }

  function rangeCondition(x: string, range: ResolvedRange, negate = false): string {
    const from = bindInstant(range.from);
    const to = bindInstant(range.to);
    return negate ? `(${x} < ${from} OR ${x} >= ${to})` : `(${x} >= ${from} AND ${x} < ${to})`;
  }

  function compileMemberFilter(m: ResolvedMember, f: MemberFilter, x: string): string {
    const values = f.values ?? [];
    const isTime = m.kind === "dimension" && (m.def as Dimension).type === "time";
    const type = m.kind === "measure" ? "number" : (m.def as Dimension).type;
    const bind = (v: FilterValue): string => {
      if (isTime) return bindInstant(instantOf(String(v)));
      if (type === "number") return `CAST(${params.add(v as number)} AS ${plan.dialect === "duckdb" ? "DOUBLE" : "NUMERIC"})`;
      if (type === "boolean") return `CAST(${params.add(v as boolean)} AS BOOLEAN)`;
      return params.add(String(v));
    };
    const subject = x;
    const text = `CAST(${x} AS VARCHAR)`;
    const like = (pattern: (v: string) => string, negate: boolean) => {
      const parts = values.map((v) => `${text} ${negate ? "NOT ILIKE" : "ILIKE"} ${params.add(pattern(escapeLike(String(v))))} ESCAPE '\\'`);
      return negate ? `((${parts.join(" AND ")}) OR ${x} IS NULL)` : `(${parts.join(" OR ")})`;
    };
    switch (f.operator) {
      case "equals":
      case "in":
        return values.length === 1 ? `${subject} = ${bind(values[0]!)}` : `${subject} IN (${values.map(bind).join(", ")})`;
      case "notEquals":
      case "notIn":
        return values.length === 1
          ? `(${subject} <> ${bind(values[0]!)} OR ${x} IS NULL)`
          : `(${subject} NOT IN (${values.map(bind).join(", ")}) OR ${x} IS NULL)`;
      case "contains":
        return like((v) => `%${v}%`, false);
      case "notContains":
        return like((v) => `%${v}%`, true);
      case "startsWith":
        return like((v) => `${v}%`, false);
      case "notStartsWith":
        return like((v) => `${v}%`, true);
      case "endsWith":
        return like((v) => `%${v}`, false);
      case "notEndsWith":
        return like((v) => `%${v}`, true);
      case "gt":
        return `${subject} > ${bind(values[0]!)}`;
      case "gte":
        return `${subject} >= ${bind(values[0]!)}`;
      case "lt":
        return `${subject} < ${bind(values[0]!)}`;
      case "lte":
        return `${subject} <= ${bind(values[0]!)}`;
      case "set":
        return `${x} IS NOT NULL`;
      case "notSet":
        return `${x} IS NULL`;
      case "inDateRange":
      case "notInDateRange": {
        const range = resolveDateRange(values.length === 1 ? String(values[0]) : values.map(String), plan.tz, plan.now) as ResolvedRange;
        return rangeCondition(x, range, f.operator === "notInDateRange");
      }
      case "beforeDate":
        return `${subject} < ${bindDate(String(values[0]), "start")}`;
      case "beforeOrOnDate":
        return `${subject} < ${bindDate(String(values[0]), "after")}`;
      case "afterDate":
        return `${subject} >= ${bindDate(String(values[0]), "after")}`;
      case "afterOrOnDate":
        return `${subject} >= ${bindDate(String(values[0]), "start")}`;
    }
  }

  /** A date-only value means its whole day in the query zone. */
  function bindDate(text: string, edge: "start" | "after"): string {
    const parsed = parseAbsoluteDate(text)!;
    let instant: Date;
    if (parsed.instant) instant = edge === "start" ? parsed.instant : new Date(parsed.instant.getTime() + 1);
    else if (parsed.dateOnly) instant = zonedWallTimeToInstant(edge === "start" ? parsed.wall! : addToWallTime(parsed.wall!, 1, "day"), plan.tz);
    else instant = zonedWallTimeToInstant(edge === "start" ? parsed.wall! : new Date(parsed.wall!.getTime() + 1), plan.tz);
    return bindInstant(instant);
  }
  function instantOf(text: string): Date {
    const parsed = parseAbsoluteDate(text)!;
    return parsed.instant ?? zonedWallTimeToInstant(parsed.wall!, plan.tz);
  }

  // Date ranges of time dimensions, kept per member so comparisons can shift theirs.
  const ranges = query.timeDimensions
    .filter((t) => t.dateRange !== undefined)
    .map((t) => ({
      member: resolveMember(model, t.dimension)!,
      range: resolveDateRange(t.dateRange!, plan.tz, plan.now) as ResolvedRange,
    }));

  // SELECT columns of the aggregate.
  const rangeOf = (m: ResolvedMember) => ranges.find((r) => r.member.name === m.name)?.range;
  const dimColumns = dimensions.map((m) => ({
    column: m.name,
    sql: (m.def as Dimension).type === "time" ? wall(sqlOf(m), rangeOf(m)) : sqlOf(m),
  }));
  // `range` is the member's date range in this scan (a period comparison scans a shifted one).
  const timeSql = (t: TimeColumn, range: ResolvedRange | undefined, shift?: string) =>
    `date_trunc('${t.granularity}', ${wall(sqlOf(t.member), range)}${shift ? ` + ${shift}` : ""})`;
  const keyColumns = [...dimColumns.map((d) => d.column), ...timeColumns.map((t) => t.column)];

  function aggregate(opts: { shift?: { column: string; interval: string; memberName: string; range?: ResolvedRange }; measureList: ResolvedMember[]; withHaving: boolean; measureAlias?: (m: ResolvedMember) => string }): string {
    const select = [
      ...dimColumns.map((d) => `${d.sql} AS ${quoteIdentifier(d.column)}`),
      ...timeColumns.map((t) => {
        const shifted = opts.shift && t.column === opts.shift.column;
        const range = shifted || (opts.shift && t.member.name === opts.shift.memberName) ? opts.shift!.range : rangeOf(t.member);
        return `${timeSql(t, range, shifted ? opts.shift!.interval : undefined)} AS ${quoteIdentifier(t.column)}`;
      }),
      ...opts.measureList.map((m) => `${sqlOf(m)} AS ${quoteIdentifier(opts.measureAlias ? opts.measureAlias(m) : m.name)}`),
    ];
    const where = [...accessWhere, ...filterWhere];
    for (const r of ranges) {
      if (opts.shift && r.member.name === opts.shift.memberName) {
        if (opts.shift.range) where.push(rangeCondition(sqlOf(r.member), opts.shift.range));
      } else where.push(rangeCondition(sqlOf(r.member), r.range));
    }
    const lines = [`SELECT ${select.join(",\n  ")}`, ...fromLines];
    if (where.length) lines.push(`WHERE ${where.join("\n  AND ")}`);
    if (keyColumns.length && opts.measureList.length) lines.push(`GROUP BY ${keyColumns.map((_, i) => i + 1).join(", ")}`);
    else if (keyColumns.length) lines.push(`GROUP BY ${keyColumns.map((_, i) => i + 1).join(", ")}`);
    if (opts.withHaving && having.length) lines.push(`HAVING ${having.join("\n  AND ")}`);
    return lines.join("\n");
  }

  // ORDER BY: as asked, else time ascending, else first measure descending, else first dimension.
  let order = query.order.map(([member, dir]) => {
    const t = timeColumns.find((c) => c.member.name === member || c.column === member);
    return [t ? t.column : member, dir] as const;
  });
  if (order.length === 0) {
    if (timeColumns.length) order = [[timeColumns[0]!.column, "asc"]];
    else if (measures.length) order = [[measures[0]!.name, "desc"]];
    else if (dimensions.length) order = [[dimensions[0]!.name, "asc"]];
  }
  const orderSql = order.length ? `ORDER BY ${order.map(([c, d]) => `${quoteIdentifier(c)} ${d.toUpperCase()} NULLS LAST`).join(", ")}` : "";
  const limitSql = `LIMIT ${query.limit}${query.offset ? ` OFFSET ${query.offset}` : ""}`;

  const columns = [...keyColumns, ...measures.map((m) => m.name)];
  let sql: string;
  if (!fillColumn && comparisons.length === 0) {
    sql = [aggregate({ measureList: measures, withHaving: true }), orderSql, limitSql].filter(Boolean).join("\n");
  } else {
    const ctes: string[] = [`${quoteIdentifier("q")} AS (\n${indent(aggregate({ measureList: measures, withHaving: true }))}\n)`];
    let current = quoteIdentifier("q");
    if (fillColumn) {
      const t = fillColumn;
      const range = ranges.find((r) => r.member.name === t.member.name)?.range;
      const td = quoteIdentifier(t.column);
      let startSql: string, endSql: string;
      if (range) {
        const start = truncateWallTime(range.wall.start, t.granularity);
        const last = truncateWallTime(new Date(range.wall.end.getTime() - 1), t.granularity);
        startSql = `CAST(${params.add(formatWallTime(start))} AS TIMESTAMP)`;
        endSql = `CAST(${params.add(formatWallTime(last))} AS TIMESTAMP)`;
      } else {
        startSql = `(SELECT min(${td}) FROM "q")`;
        endSql = `(SELECT max(${td}) FROM "q")`;
      }
      const series = `generate_series(${startSql}, ${endSql}, ${INTERVALS[t.granularity]})`;
      ctes.push(`"time_grid" AS (\n  SELECT ${plan.dialect === "duckdb" ? `unnest(${series})` : series} AS ${td}\n)`);
      const crossKeys = keyColumns.filter((k) => k !== t.column && !excluded.has(k));
      const excludedKeys = keyColumns.filter((k) => k !== t.column && excluded.has(k));
      let gridFrom = `"time_grid"`;
      if (crossKeys.length) {
        ctes.push(`"dimension_values" AS (\n  SELECT DISTINCT ${crossKeys.map(quoteIdentifier).join(", ")} FROM "q"\n)`);
        gridFrom = `"time_grid" CROSS JOIN "dimension_values"`;
      }
      const gridKeys = [t.column, ...crossKeys];
      const zeroFill = (m: ResolvedMember) => ["count", "count_distinct", "sum"].includes((m.def as Measure).type);
      const filledSelect = keyColumns.map((k) =>
        excludedKeys.includes(k) ? `"q".${quoteIdentifier(k)}` : `"grid".${quoteIdentifier(k)}`,
      );
      for (const m of measures) {
        filledSelect.push(zeroFill(m) ? `COALESCE("q".${quoteIdentifier(m.name)}, 0) AS ${quoteIdentifier(m.name)}` : `"q".${quoteIdentifier(m.name)}`);
      }
      ctes.push(`"grid" AS (\n  SELECT * FROM ${gridFrom}\n)`);
      ctes.push(
        `"filled" AS (\n  SELECT ${filledSelect.join(", ")}\n  FROM "grid" LEFT JOIN "q" ON ${gridKeys.map((k) => `"q".${quoteIdentifier(k)} IS NOT DISTINCT FROM "grid".${quoteIdentifier(k)}`).join(" AND ")}\n)`,
      );
      current = `"filled"`;
    }
    const extraSelect: string[] = [];
    const joins: string[] = [];
    comparisons.forEach((c, i) => {
      const t = c.tc!;
      const cteName = quoteIdentifier(`period_${i}`);
      const measure = resolveMember(model, c.pc.measure)!;
      const interval = intervalLiteral(c.pc.offset.amount, c.unit);
      const own = ranges.find((r) => r.member.name === t.member.name)?.range;
      const shiftedRange = own
        ? (() => {
            const start = addToWallTime(own.wall.start, -c.pc.offset.amount, c.unit);
            const end = addToWallTime(own.wall.end, -c.pc.offset.amount, c.unit);
            return { wall: { start, end }, from: zonedWallTimeToInstant(start, plan.tz), to: zonedWallTimeToInstant(end, plan.tz) };
          })()
        : undefined;
      ctes.push(
        `${cteName} AS (\n${indent(
          aggregate({
            shift: { column: t.column, interval, memberName: t.member.name, range: shiftedRange },
            measureList: [measure],
            withHaving: false,
            measureAlias: () => "value",
          }),
        )}\n)`,
      );
      joins.push(
        `LEFT JOIN ${cteName} ON ${keyColumns.map((k) => `${cteName}.${quoteIdentifier(k)} IS NOT DISTINCT FROM "base".${quoteIdentifier(k)}`).join(" AND ") || "TRUE"}`,
      );
      const prev = `${cteName}."value"`;
      const cur = `"base".${quoteIdentifier(c.pc.measure)}`;
      const exprs = [prev, `${cur} - ${prev}`, `(${cur} - ${prev}) / NULLIF(CAST(${prev} AS DOUBLE PRECISION), 0)`];
      c.outputs.forEach((o, k) => extraSelect.push(`${exprs[k]} AS ${quoteIdentifier(o)}`));
    });
    const finalSelect = [`"base".*`, ...extraSelect].join(", ");
    sql = [
      `WITH ${ctes.join(",\n")}`,
      `SELECT ${finalSelect}`,
      `FROM ${current} AS "base"`,
      ...joins,
      orderSql.replace(/ORDER BY /, "ORDER BY ").replace(/"([^"]+)" (ASC|DESC)/g, (_m, c: string, d: string) => `"base".${quoteIdentifier(c.replace(/""/g, '"'))} ${d}`),
      limitSql,
    ]
      .filter(Boolean)
      .join("\n");
    for (const c of comparisons) columns.push(...c.outputs);
  }

  // Annotation.
  const annotation: QueryAnnotation = { measures: {}, dimensions: {}, timeDimensions: {}, periodComparisons: {} };
  for (const m of measures) annotation.measures[m.name] = annotate(m);
  for (const d of dimensions) annotation.dimensions[d.name] = annotate(d);
  for (const t of timeColumns) annotation.timeDimensions[t.column] = { ...annotate(t.member), granularity: t.granularity };
  for (const c of comparisons) {
    const base = annotate(resolveMember(model, c.pc.measure)!);
    const when = `${Math.abs(c.pc.offset.amount)} ${c.unit}${Math.abs(c.pc.offset.amount) === 1 ? "" : "s"} ${c.pc.offset.amount > 0 ? "earlier" : "later"}`;
    const kinds = ["previous", "change", "percent_change"] as const;
    c.outputs.forEach((o, k) => {
      const label = k === 0 ? when : k === 1 ? `change vs ${when}` : `% change vs ${when}`;
      annotation.periodComparisons[o] = {
        ...base,
        title: `${base.title} (${label})`,
        shortTitle: `${base.shortTitle} (${label})`,
        format: k === 2 ? "percent" : base.format,
        measure: c.pc.measure,
        output: kinds[k]!,
      };
    });
  }
  return { sql, params: params.values, annotation, columns };

  function memberSql(cube: Cube, def: Dimension | Measure, multipliedCube: boolean, depth = 0): string {
    if (depth > 16) {
      throw new QueryValidationError([{ path: [], code: "unknown_member", message: `member ${cube.name}.${def.name} refers to itself` }]);
    }
    const a = alias(cube.name);
    const render = (sql: string) =>
      IDENTIFIER.test(sql)
        ? `${a}.${quoteIdentifier(sql)}`
        : sql.replace(SQL_REFERENCE, (_t, head: string) => {
            if (head === "CUBE") return a;
            const ref = cube.dimensions.get(head) ?? cube.measures.get(head)!;
            return `(${memberSql(cube, ref, multipliedCube, depth + 1)})`;
          });
    // Parenthesized so that an expression ("{CUBE}.amount >= 50") stays one operand.
    if (def.kind === "dimension") return IDENTIFIER.test(def.sql) ? render(def.sql) : `(${render(def.sql)})`;
    const conditions = def.filters.map((f) => `(${render(f)})`);
    const when = (value: string) => (conditions.length ? `CASE WHEN ${conditions.join(" AND ")} THEN ${value} END` : value);
    switch (def.type) {
      case "count": {
        if (multipliedCube) return `count(DISTINCT ${when(render(primaryKeyOf(cube)!.sql))})`;
        if (def.sql === undefined) return conditions.length ? `count(${when("1")})` : "count(*)";
        return `count(${when(render(def.sql))})`;
      }
      case "count_distinct":
        return `count(DISTINCT ${when(render(def.sql!))})`;
      case "sum":
      case "avg":
      case "min":
      case "max":
        return `${def.type}(${when(render(def.sql!))})`;
      case "number":
        return render(def.sql!);
    }
  }
}

/** "YYYY-MM-DDTHH:mm:ss.sss" of an instant in UTC, for comparison with naive UTC columns. */
function naiveUtc(instant: Date): string {
  return instant.toISOString().slice(0, 23);
}

/** A TIMESTAMP literal; only ever built from a Date (no outside text reaches it). */
function timestampLiteral(instant: Date): string {
  return `TIMESTAMP '${naiveUtc(instant).replace("T", " ")}'`;
}

/** Microsecond offset of the segment `naive` falls in, as a balanced CASE (log₂ n comparisons a row). */
function offsetTree(naive: string, segments: OffsetSegment[]): string {
  const build = (lo: number, hi: number): string => {
    if (lo === hi) return String(segments[lo]!.offsetMs * 1000);
    const mid = Math.ceil((lo + hi + 1) / 2);
    return `CASE WHEN ${naive} < ${timestampLiteral(segments[mid]!.start)} THEN ${build(lo, mid - 1)} ELSE ${build(mid, hi)} END`;
  };
  return build(0, segments.length - 1);
}

function indent(sql: string): string {
  return sql
    .split("\n")
    .map((l) => `  ${l}`)
    .join("\n");
}

function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

function qualify(source: string, name: string): string {
  return name.startsWith(`${source}.`) ? name : `${source}.${name}`;
}

function collectPolicyMembers(filters: ResolvedPolicyFilter[]): string[] {
  const out: string[] = [];
  const walk = (f: ResolvedPolicyFilter) => {
    if ("never" in f) return;
    if ("or" in f) f.or.forEach(walk);
    else if ("and" in f) f.and.forEach(walk);
    else out.push(f.member);
  };
  filters.forEach(walk);
  return out;
}

function tableSql(cube: Cube): string {
  if (cube.sql !== undefined) return `(${cube.sql})`;
  return cube.sqlTable!.split(".").map(quoteIdentifier).join(".");
}

function primaryKeyOf(cube: Cube): Dimension | undefined {
  return [...cube.dimensions.values()].find((d) => d.primaryKey);
}

/** Why a measure cannot be computed exactly under fan-out, or undefined if it can. */
function unsafeUnderFanOut(cube: Cube, m: Measure, depth = 0): string | undefined {
  if (depth > 16) return undefined;
  switch (m.type) {
    case "count":
      return primaryKeyOf(cube) ? undefined : `cube ${cube.name} has no primary_key`;
    case "count_distinct":
    case "min":
    case "max":
      return undefined;
    case "sum":
    case "avg":
      return `${m.type} over repeated rows`;
    case "number": {
      for (const ref of m.sql!.matchAll(SQL_REFERENCE)) {
        const inner = cube.measures.get(ref[1]!);
        const reason = inner && unsafeUnderFanOut(cube, inner, depth + 1);
        if (reason) return reason;
      }
      return /\b(sum|avg)\s*\(/i.test(m.sql!.replace(SQL_REFERENCE, "")) ? "sum/avg over repeated rows" : undefined;
    }
  }
}

interface JoinTree {
  root: string;
  /** Cubes in join order (parents before children). */
  order: string[];
  parent: Map<string, string>;
}

function viewJoinTree(model: DataModel, view: View, members: ResolvedMember[]): JoinTree {
  const paths = members.map((m) => m.joinPath ?? [m.cube.name]);
  // Start from the deepest cube all members share: a query about customers alone does not
  // need to go through orders.
  let common = paths[0] ?? [view.rootCube];
  for (const p of paths) {
    let i = 0;
    while (i < common.length && i < p.length && common[i] === p[i]) i++;
    common = common.slice(0, i);
  }
  if (common.length === 0) common = [view.rootCube];
  const root = common[common.length - 1]!;
  const parent = new Map<string, string>();
  const order = [root];
  for (const p of paths) {
    for (let i = common.length; i < p.length; i++) {
      if (!parent.has(p[i]!) && p[i] !== root) {
        parent.set(p[i]!, p[i - 1]!);
        order.push(p[i]!);
      }
    }
  }
  void model;
  return { root, order, parent };
}

function cubeJoinTree(model: DataModel, members: ResolvedMember[], problems: QueryProblem[]): JoinTree | undefined {
  const needed: string[] = [];
  for (const m of members) if (!needed.includes(m.cube.name)) needed.push(m.cube.name);
  for (const root of needed) {
    const parent = new Map<string, string>();
    const seen = new Set([root]);
    const queue = [root];
    while (queue.length) {
      const c = queue.shift()!;
      for (const target of model.cubes.get(c)!.joins.keys()) {
        if (seen.has(target) || !model.cubes.has(target)) continue;
        seen.add(target);
        parent.set(target, c);
        queue.push(target);
      }
    }
    if (!needed.every((n) => seen.has(n))) continue;
    const inTree = new Set<string>([root]);
    for (const n of needed) for (let c: string | undefined = n; c && !inTree.has(c); c = parent.get(c)) inTree.add(c);
    // Parents before children: sort by depth.
    const depth = (c: string): number => (c === root ? 0 : 1 + depth(parent.get(c)!));
    const order = [...inTree].sort((a, b) => depth(a) - depth(b));
    return { root, order, parent: new Map([...parent].filter(([k]) => inTree.has(k))) };
  }
  problems.push({ path: [], code: "unjoinable_members", message: `no join path connects cubes ${needed.join(", ")}` });
  return undefined;
}

function isMultiplied(model: DataModel, tree: JoinTree, cube: string): boolean {
  const inSubtree = (node: string, top: string) => {
    for (let c: string | undefined = node; c; c = tree.parent.get(c)) if (c === top) return true;
    return false;
  };
  for (const child of tree.order) {
    if (child === tree.root) continue;
    const rel = model.cubes.get(tree.parent.get(child)!)!.joins.get(child)!.relationship;
    const below = inSubtree(cube, child);
    if (rel === "many_to_one" && below) return true;
    if (rel === "one_to_many" && !below) return true;
  }
  return false;
}

function annotate(m: ResolvedMember): MemberAnnotation {
  const out: MemberAnnotation = {
    title: m.title,
    shortTitle: m.shortTitle,
    type: m.kind === "measure" ? "number" : (m.def as Dimension).type,
  };
  if (m.def.format) out.format = m.def.format;
  if (m.kind === "measure") out.measureType = (m.def as Measure).type;
  if (m.def.description) out.description = m.def.description;
  if (m.def.meta) out.meta = m.def.meta;
  return out;
}
