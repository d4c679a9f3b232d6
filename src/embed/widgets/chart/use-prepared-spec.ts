/**
 * The Vega-Lite spec a chart or map widget draws: the report's spec (or the map's) with the
 * result's rows, titles, formats and the theme's colours; `"waiting"` while a map's geography
 * loads, null when there is nothing to draw.
 */
import { useMemo } from "react";
import type { QueryResult, SemanticQuery } from "../../shell/platform-api";
import { categoryColors } from "./category-colors";
import { attachGeo, buildMapSpec, isMapSpec, mapRows } from "./map-spec";
import { useWorldGeo } from "./use-world-geo";
import type { useChartPalette } from "./use-chart-palette";
import { buildVegaConfig } from "./vega-theme";
import { prepareVegaLiteSpec, withTemporalAxisFormat, withTemporalTicks, type VegaLiteSpec } from "./vega-spec";

export function usePreparedSpec(input: {
  isVega: boolean;
  kind: string;
  spec: Record<string, unknown> | null;
  data: QueryResult | null | undefined;
  /** The widget has its report and a composed query. */
  ready: boolean;
  composed: SemanticQuery | null;
  palette: ReturnType<typeof useChartPalette>;
  aliases: Record<string, string>;
}) {
  const { isVega, kind, spec, data, ready, composed, palette, aliases } = input;
  const mapSpec = kind === "map" && isMapSpec(spec) ? spec : null;
  const geo = useWorldGeo(mapSpec !== null);
  const prepared = useMemo(() => {
    if (!isVega || !data || !ready || !composed) return null;
    if (kind === "map") {
      if (!mapSpec || geo.status === "failed") return null;
      if (geo.status !== "ready") return "waiting" as const;
      const out = prepareVegaLiteSpec(buildMapSpec(mapSpec, palette), mapRows(mapSpec, data.data), {
        annotation: data.annotation,
        aliases,
        config: buildVegaConfig(palette),
        categoryColors,
      });
      return { ...out, spec: attachGeo(out.spec, mapSpec, geo.geo) };
    }
    const source = spec as VegaLiteSpec | null;
    if (!source) return null;
    const granularity = composed.timeDimensions?.find((td) => td.granularity)?.granularity;
    return prepareVegaLiteSpec(withTemporalTicks(withTemporalAxisFormat(source, granularity), data.data, granularity), data.data, {
      annotation: data.annotation,
      aliases,
      config: buildVegaConfig(palette),
      categoryColors,
    });
  }, [isVega, kind, spec, mapSpec, geo, data, ready, composed, palette, aliases]);
  return { prepared, geoFailed: geo.status === "failed" };
}
