import { withTemporalAxisFormat, withTemporalTicks } from "../widgets/chart/temporal-axis";
import type { VegaLiteSpec } from "../widgets/chart/vega-spec";

/**
 * An answer's chart as drawn: a time axis labelled at the grain its column names
 * (`sales.created_at.month`) and ticked at the answer's own buckets, thinned to the width when
 * drawn (temporal-axis.ts), so monthly data never gets weekly ticks.
 */
export function answerChartSpec(spec: VegaLiteSpec): VegaLiteSpec {
  const x = (spec.encoding as { x?: { field?: unknown } } | undefined)?.x;
  const grain = typeof x?.field === "string" ? /\\?\.(year|quarter|month|week|day)$/.exec(x.field)?.[1] : undefined;
  const data = spec.data as { values?: Record<string, unknown>[] } | undefined;
  return withTemporalTicks(withTemporalAxisFormat(spec, grain), data?.values ?? [], grain);
}

/** The height of an answer's chart drawing: 220 px, or room for each bar of a chart drawn sideways (20 px a bar and its name). */
export function answerChartHeight(spec: VegaLiteSpec): number {
  const y = (spec.encoding as { y?: { type?: unknown } } | undefined)?.y;
  if (y?.type !== "nominal") return 220;
  const rows = (spec.data as { values?: unknown[] } | undefined)?.values?.length ?? 0;
  return Math.max(220, rows * 20);
}
