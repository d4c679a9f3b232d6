/**
 * What the report builder knows of the data model and derives from a draft: the views and
 * members (titles, types, measure types; the draft's calculated fields among them), the query a draft runs and saves with its calculations
 * (`runQueryOf`), the chart suggested for its shape and the chart shown, the breakouts a pivot
 * can put across, and what is saved (`inputOf`).
 */
import { useMemo, useState } from "react";
import { useQuery } from "@tanstack/react-query";
import type { ReportKind } from "../../../schema/dashboard";
import type { ReportInput } from "../../../schema/report";
import { useEmbedStore } from "../../state/use-embed-store";
import type { QueryRequest, SemanticQuery } from "../../shell/platform-api";
import { useApp } from "./app-context";
import type { MetaMember } from "./app-api";
import { runQueryOf, type RunContext } from "./report-draft-query";
import { calculatedMembersOf, runnableCalculatedFieldsOf } from "./report-formula";
import { todayOf } from "./report-today";
import { chartSpecOf, type Viz } from "./report-query";
import { timeColumnOf } from "./report-time";
import { shapeOf, suggestedVizOf } from "./report-viz-suggestion";
import type { ReportDraft } from "./use-report-draft";
import { appQueries } from "./app-queries";

export const kindOf = (viz: Viz): ReportKind => (viz === "table" || viz === "pivot" ? "table" : viz === "kpi" ? "kpi" : "vega");

/** The preview's row limit when the query sets none (a pivot's totals are of the rows it holds). */
export const PREVIEW_LIMIT: Record<"pivot" | "other", number> = { pivot: 5000, other: 500 };

/** What decides a result's rows (not its order, limit or the zone the chart widget adds). */
const shapeKeyOf = (q: SemanticQuery) => JSON.stringify([q.measures ?? [], q.dimensions ?? [], q.timeDimensions ?? [], q.filters ?? [], q.compare ?? null]);

export function useReportModel() {
  const { api, switches } = useApp();
  const locale = useEmbedStore((s) => s.locale);
  const meta = useQuery(appQueries.meta(api, locale));
  const sources = useMemo(() => meta.data?.sources ?? [], [meta.data]);
  const allMembers = useMemo(() => new Map(sources.flatMap((s) => [...s.measures, ...s.dimensions]).map((m) => [m.name, m])), [sources]);
  /** Titles, labels and types of the model's members and of the draft's calculated fields. */
  const forDraft = (draft?: Pick<ReportDraft, "view" | "query">) => {
    const source = sources.find((s) => s.name === draft?.view) ?? sources[0];
    const fields = draft?.query.calculatedFields;
    const extra = source && fields?.length ? calculatedMembersOf(source, fields) : null;
    const calculated = new Map(extra ? [...extra.measures, ...extra.dimensions].map((m) => [m.name, m]) : []);
    const memberOf = (name: string) => calculated.get(name) ?? allMembers.get(name);
    const titleOf = (name: string) => memberOf(name)?.shortTitle ?? memberOf(name)?.title ?? name;
    const label = (m: MetaMember | string) => {
      const member = typeof m === "string" ? memberOf(m) : m;
      if (!member) return String(m);
      return switches.showMemberNames ? `${member.shortTitle || member.title} (${member.name})` : member.shortTitle || member.title;
    };
    const ctx: RunContext = {
      typeOf: (name) => memberOf(name)?.type,
      measureTypeOf: (name) => memberOf(name)?.measureType,
      today: todayOf(),
    };
    return { titleOf, label, ctx, source };
  };
  const { titleOf, label, ctx } = forDraft();
  // The row count of the last result of each query: one category of many values reads better as a table.
  const [rowCounts, setRowCounts] = useState<Record<string, number>>({});
  const onRows = (request: QueryRequest, rows: number) => {
    const key = shapeKeyOf(request.query);
    setRowCounts((counts) => (counts[key] === rows ? counts : { ...counts, [key]: rows }));
  };

  const runOf = (draft: ReportDraft) => {
    const words = forDraft(draft);
    const { titleOf, label } = words;
    const calculated = runQueryOf(draft, words.ctx);
    // A calculated field that does not check, or that no part of the query names, is left out.
    const run = { ...calculated, query: runnableCalculatedFieldsOf(calculated.query, words.source) };
    const q = run.query;
    const suggested = suggestedVizOf(shapeOf(q, rowCounts[shapeKeyOf(q)] ?? null));
    const viz = draft.vizAuto ? suggested : draft.viz;
    const td = q.timeDimensions?.find((t) => t.granularity || t.part);
    const breakouts = [
      ...(q.dimensions ?? []).map((d) => ({ key: d, title: label(d) })),
      ...(td ? [{ key: timeColumnOf(td), title: label(td.dimension) }] : []),
    ];
    const keys = breakouts.map((b) => b.key);
    const across = draft.pivotColumns && keys.includes(draft.pivotColumns) ? draft.pivotColumns : (keys[keys.length - 1] ?? "");
    const spec = viz === "pivot" ? { pivot: { columns: across } } : kindOf(viz) === "vega" ? chartSpecOf(viz, q, titleOf, locale) : null;
    return { ...run, suggested, viz, breakouts, across, spec, kind: kindOf(viz) };
  };

  const inputOf = (draft: ReportDraft, fallbackName: string): ReportInput => {
    const run = runOf(draft);
    return {
      name: draft.name.trim() || fallbackName,
      kind: run.kind,
      query: { ...run.query },
      spec: run.spec,
      preferences: { columnFormats: draft.formats },
      periodComparisons: run.periodComparisons,
    };
  };

  return { meta, sources, titleOf, label, ctx, forDraft, onRows, runOf, inputOf };
}
