/**
 * Map reports as vega-lite specs over Natural Earth land and borders (world-atlas, served by
 * the platform): points placed by latitude/longitude, sized by a measure, or countries filled
 * by a measure (choropleth, by ISO 3166-1 alpha-2, alpha-3 or numeric code). The projection is
 * fitted to the data, not to the whole world. Every layer is clipped to the plot: the land
 * beyond it would otherwise count into the chart's bounds and squeeze the plot to nothing.
 */
import { iso31661Alpha2ToNumeric, iso31661Alpha3ToAlpha2 } from "iso-3166";
import { COMPACT_NUMBER_LABEL, type ChartPalette } from "./vega-theme";
import { safeFieldName, type VegaLiteSpec } from "./vega-spec";
import type { WorldGeo } from "./world-geo";

/** Report spec of a point map. */
export interface PointMapSpec {
  latitude: string;
  longitude: string;
  size?: string;
  label?: string;
  color?: string;
}

/** Report spec of a choropleth: `country` holds country codes, `value` the measure that fills them. */
export interface ChoroplethMapSpec {
  country: string;
  value: string;
  label?: string;
}

export type MapSpec = PointMapSpec | ChoroplethMapSpec;

export function isPointMapSpec(value: unknown): value is PointMapSpec {
  const v = value as Partial<PointMapSpec> | null;
  return !!v && typeof v === "object" && typeof v.latitude === "string" && typeof v.longitude === "string";
}

export function isChoroplethMapSpec(value: unknown): value is ChoroplethMapSpec {
  const v = value as Partial<ChoroplethMapSpec> | null;
  return !!v && typeof v === "object" && typeof v.country === "string" && typeof v.value === "string";
}

export function isMapSpec(value: unknown): value is MapSpec {
  return isPointMapSpec(value) || isChoroplethMapSpec(value);
}

/** A short size legend (four sizes, compact labels) that never outgrows a phone-wide card. */
const SIZE_LEGEND: VegaLiteSpec = {
  orient: "bottom",
  direction: "horizontal",
  symbolType: "circle",
  tickCount: 3,
  columns: 4,
  labelExpr: COMPACT_NUMBER_LABEL,
};

/** The column that joins result rows to the map's countries. */
export const GEO_ID_FIELD = "__geo_id";

/** ISO 3166-1 numeric code ("840", the world-atlas feature id) of an alpha-2, alpha-3 or numeric code. */
export function numericCountryCode(code: unknown): string | null {
  if (typeof code === "number") return String(code).padStart(3, "0");
  if (typeof code !== "string") return null;
  const c = code.trim().toUpperCase();
  if (/^\d{1,3}$/.test(c)) return c.padStart(3, "0");
  const alpha2 = c.length === 3 ? iso31661Alpha3ToAlpha2[c] : c;
  return (alpha2 && iso31661Alpha2ToNumeric[alpha2]) ?? null;
}

/** Result rows with the join column a choropleth needs; points need none. */
export function mapRows(map: MapSpec, rows: readonly Record<string, unknown>[]): Record<string, unknown>[] {
  if (!isChoroplethMapSpec(map)) return [...rows];
  return rows.map((row) => ({ ...row, [GEO_ID_FIELD]: numericCountryCode(row[map.country]) }));
}

interface MapColours {
  ocean: string;
  land: string;
  border: string;
  pointStroke: string;
}

export function mapColours(palette: Pick<ChartPalette, "scheme">): MapColours {
  return palette.scheme === "dark"
    ? { ocean: "#0e1626", land: "#243045", border: "#3b4a63", pointStroke: "#0b0f17" }
    : { ocean: "#eef4fb", land: "#e3e7ee", border: "#ffffff", pointStroke: "#ffffff" };
}

/** The vega-lite spec over member names; `prepareVegaLiteSpec` renames them, `attachGeo` adds the geography. */
export function buildMapSpec(map: MapSpec, palette: Pick<ChartPalette, "scheme">): VegaLiteSpec {
  const colours = mapColours(palette);
  const base: VegaLiteSpec[] = [
    { data: { sphere: true }, mark: { type: "geoshape", fill: colours.ocean, stroke: null, clip: true } },
    {
      data: { name: "world" },
      mark: { type: "geoshape", fill: colours.land, stroke: colours.border, strokeWidth: 0.6, clip: true },
      encoding: { tooltip: { field: "properties.name", type: "nominal", title: null } },
    },
  ];
  if (isChoroplethMapSpec(map)) {
    const tooltip: VegaLiteSpec[] = [
      { field: map.label ?? map.country, type: "nominal" },
      { field: map.value, type: "quantitative", format: ",.0f" },
    ];
    return {
      projection: { type: "equalEarth" },
      layer: [
        ...base,
        {
          data: { name: "world" },
          transform: [
            { lookup: "id", from: { data: { name: "rows" }, key: GEO_ID_FIELD, fields: [...new Set([map.value, map.country, map.label ?? map.country])] } },
            { filter: `isValid(datum[${JSON.stringify(map.value)}])` },
          ],
          mark: { type: "geoshape", stroke: colours.border, strokeWidth: 0.6, clip: true },
          encoding: {
            color: {
              field: map.value,
              type: "quantitative",
              legend: { orient: "bottom", direction: "horizontal", gradientLength: 160, labelExpr: COMPACT_NUMBER_LABEL },
            },
            tooltip,
          },
        },
      ],
    };
  }
  const tooltip: VegaLiteSpec[] = [map.label, map.size, map.color]
    .filter((m): m is string => !!m)
    .map((field): VegaLiteSpec => (field === map.size ? { field, type: "quantitative", format: ",.0f" } : { field }));
  const points: VegaLiteSpec = {
    mark: { type: "circle", opacity: 0.8, stroke: colours.pointStroke, strokeWidth: 0.8, clip: true },
    encoding: {
      latitude: { field: map.latitude, type: "quantitative" },
      longitude: { field: map.longitude, type: "quantitative" },
      ...(map.size ? { size: { field: map.size, type: "quantitative", scale: { range: [24, 640] }, legend: SIZE_LEGEND } } : { size: { value: 60 } }),
      ...(map.color ? { color: { field: map.color, type: "nominal" } } : {}),
      ...(tooltip.length ? { tooltip } : {}),
    },
  };
  return { projection: { type: "equalEarth" }, layer: [...base, points] };
}

/** A GeoJSON the projection is fitted to: the data's extent with a margin, never narrower than 20° by 12°. */
export function fitTarget(map: MapSpec, values: readonly Record<string, unknown>[], geo: WorldGeo): unknown {
  if (isChoroplethMapSpec(map)) {
    const ids = new Set(values.map((v) => v[GEO_ID_FIELD]).filter((id) => typeof id === "string"));
    const features = geo.countries.features.filter((f) => ids.has(String(f.id)));
    return features.length ? { type: "FeatureCollection", features } : { type: "Sphere" };
  }
  const lat = safeFieldName(map.latitude);
  const lon = safeFieldName(map.longitude);
  const points = values
    .map((v) => [Number(v[lon]), Number(v[lat])] as const)
    .filter(([x, y]) => Number.isFinite(x) && Number.isFinite(y) && Math.abs(x) <= 180 && Math.abs(y) <= 90);
  if (points.length === 0) return { type: "Sphere" };
  const xs = points.map((p) => p[0]);
  const ys = points.map((p) => p[1]);
  const [minX, maxX, minY, maxY] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const padX = Math.max((maxX - minX) * 0.12, (20 - (maxX - minX)) / 2, 2);
  const padY = Math.max((maxY - minY) * 0.12, (12 - (maxY - minY)) / 2, 2);
  const x0 = Math.max(-180, minX - padX);
  const x1 = Math.min(180, maxX + padX);
  const y0 = Math.max(-85, minY - padY);
  const y1 = Math.min(85, maxY + padY);
  return {
    type: "MultiPoint",
    coordinates: [
      [x0, y0],
      [x1, y0],
      [x1, y1],
      [x0, y1],
      [(x0 + x1) / 2, (y0 + y1) / 2],
    ],
  };
}

/** The prepared spec with the countries, the rows a choropleth looks up, and the projection fitted to the data. */
export function attachGeo(spec: VegaLiteSpec, map: MapSpec, geo: WorldGeo): VegaLiteSpec {
  const values = ((spec.data as { values?: Record<string, unknown>[] } | undefined)?.values ?? []) as Record<string, unknown>[];
  const projection = (spec.projection ?? {}) as Record<string, unknown>;
  return {
    ...spec,
    projection: { ...projection, fit: fitTarget(map, values, geo) },
    datasets: { world: geo.countries.features, rows: values },
  } as unknown as VegaLiteSpec;
}
