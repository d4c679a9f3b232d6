/** What the report builder derives from its query: the chart spec of the chosen chart and the query written as semantic SQL. */
import type { MemberFilter } from "../../../schema/semantic-query";
import type { SemanticQuery } from "../../shell/platform-api";
import { timeColumnOf, timePartLabelExpr } from "./report-time";

export type Viz = "table" | "pivot" | "bar" | "line" | "area" | "kpi";

/** A pivot is saved as a table report whose spec names the breakout across: `{ pivot: { columns } }`. */
export function pivotSpecOf(spec: unknown): { columns: string | null } | null {
  const pivot = typeof spec === "object" && spec !== null ? (spec as { pivot?: unknown }).pivot : undefined;
  if (typeof pivot !== "object" || pivot === null) return null;
  const columns = (pivot as { columns?: unknown }).columns;
  return { columns: typeof columns === "string" ? columns : null };
}

/**
 * A Vega-Lite spec for the chosen chart over the query's members. A time dimension by period is a
 * temporal axis; by a part of time an ordered one, labelled in `locale` ("Montag", "14:00").
 */
export function chartSpecOf(viz: Viz, q: SemanticQuery, titleOf: (m: string) => string, locale = "en-US"): Record<string, unknown> | null {
  // A compared measure has no column of its own: its change is charted, titled and formatted (signed) by the result's annotation.
  const measure = q.measures?.[0] && q.compare ? `${q.measures[0]}.change` : q.measures?.[0];
  const amount = q.compare ? { field: measure, type: "quantitative" } : { field: measure, type: "quantitative", title: measure ? titleOf(measure) : null };
  const td = q.timeDimensions?.find((t) => t.granularity || t.part);
  // A part's column is `<member>.<part>`; a period's rows carry the member itself as well.
  const time = td ? (td.part ? timeColumnOf(td) : td.dimension) : undefined;
  const dim = q.dimensions?.[0];
  if (!measure || (!time && !dim)) return null;
  const x = time ?? dim!;
  const xType = td?.part ? "ordinal" : time ? "temporal" : "nominal";
  const partAxis = td?.part ? { axis: { labelExpr: timePartLabelExpr(locale, td.part), labelAngle: 0 } } : {};
  const color = time && dim ? { color: { field: dim, type: "nominal", title: titleOf(dim) } } : {};
  const tooltip = [{ field: x, type: xType, title: titleOf(td?.dimension ?? x) }, q.compare ? amount : { ...amount, format: ",.2f" }];
  if (viz === "bar" && !time) {
    return {
      mark: { type: "bar", cornerRadiusEnd: 3 },
      encoding: {
        y: { field: x, type: xType, sort: "-x", title: null },
        x: amount,
        tooltip,
      },
    };
  }
  return {
    mark: viz === "area" ? { type: "area", line: true, opacity: 0.3 } : viz === "line" ? { type: "line", point: true } : { type: "bar" },
    encoding: {
      x: { field: x, type: xType, title: null, ...partAxis },
      y: amount,
      ...color,
      tooltip,
    },
  };
}

function filterSql(f: MemberFilter): string {
  const values = (f.values ?? []).map((v) => JSON.stringify(v));
  if ((f.operator === "between" || f.operator === "notBetween") && values.length === 2)
    return `${f.member} ${f.operator === "between" ? "BETWEEN" : "NOT BETWEEN"} ${values[0]} AND ${values[1]}`;
  return `${f.member} ${f.operator}${values.length ? ` (${values.join(", ")})` : ""}`;
}

/** The query as semantic SQL: members by name, the semantic layer does the joins and grouping. */
export function semanticSqlOf(q: SemanticQuery, view: string | null): string {
  const cols = [
    ...(q.dimensions ?? []),
    ...(q.timeDimensions ?? []).flatMap((t) =>
      t.part ? [`EXTRACT(${t.part} FROM ${t.dimension})`] : t.granularity ? [`DATE_TRUNC('${t.granularity}', ${t.dimension})`] : [],
    ),
    ...(q.measures ?? []).map((m) => `MEASURE(${m})`),
  ];
  const where = (q.filters ?? []).filter((f): f is MemberFilter => "member" in f).map(filterSql);
  const ranges = (q.timeDimensions ?? []).filter((t) => t.dateRange).map((t) => `${t.dimension} IN DATE RANGE ${JSON.stringify(t.dateRange)}`);
  const order = Array.isArray(q.order) ? q.order : Object.entries(q.order ?? {});
  const lines = [`SELECT ${cols.join(",\n       ") || "*"}`, `FROM ${view ?? "?"}`];
  if (where.length || ranges.length) lines.push(`WHERE ${[...where, ...ranges].join("\n  AND ")}`);
  if (order.length) lines.push(`ORDER BY ${order.map(([m, d]) => `${m} ${String(d).toUpperCase()}`).join(", ")}`);
  if (q.limit) lines.push(`LIMIT ${q.limit}`);
  return lines.join("\n");
}
