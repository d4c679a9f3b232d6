/**
 * Time axes of charts: label formats by the query's granularity, and tick values at the
 * result's own time buckets thinned to the drawn width.
 */
import type { Json, VegaLiteSpec } from "./vega-spec";

type JsonObject = { [key: string]: Json };
const isObject = (node: Json | undefined): node is JsonObject => !!node && typeof node === "object" && !Array.isArray(node);

/**
 * Axis label formats of time axes by the query's granularity: month names alone are
 * ambiguous on a chart spanning years, so months carry the year ("Jan 2024").
 */
export const TEMPORAL_AXIS_FORMATS: Readonly<Record<string, string>> = {
  year: "%Y",
  quarter: "Q%q %Y",
  month: "%b %Y",
  week: "%b %-d, %Y",
  day: "%b %-d, %Y",
};

/**
 * Gives every temporal x/y encoding without an axis format of its own the format of
 * `granularity` (in layers too). Other granularities (hours, minutes) keep vega's default.
 */
export function withTemporalAxisFormat(spec: VegaLiteSpec, granularity: string | undefined): VegaLiteSpec {
  const format = granularity ? TEMPORAL_AXIS_FORMATS[granularity] : undefined;
  if (!format) return spec;
  const encode = (encoding: Json | undefined): Json | undefined => {
    if (!encoding || typeof encoding !== "object" || Array.isArray(encoding)) return encoding;
    const next: { [key: string]: Json } = { ...encoding };
    for (const channel of ["x", "y"]) {
      const def = next[channel];
      if (!def || typeof def !== "object" || Array.isArray(def) || def.type !== "temporal" || "timeUnit" in def) continue;
      const axis = def.axis;
      if (axis === null || (axis && typeof axis === "object" && !Array.isArray(axis) && "format" in axis)) continue;
      next[channel] = { ...def, axis: { ...(axis && typeof axis === "object" && !Array.isArray(axis) ? axis : {}), format } };
    }
    return next;
  };
  const out: VegaLiteSpec = { ...spec };
  if (out.encoding) out.encoding = encode(out.encoding)!;
  if (Array.isArray(out.layer))
    out.layer = out.layer.map((layer) => (layer && typeof layer === "object" && !Array.isArray(layer) ? withTemporalAxisFormat(layer, granularity) : layer));
  return out;
}

/** Width a temporal tick label needs ("Sep 2023", "Q3 2024", "Sep 14, 2025") with its gap, in pixels. */
const TEMPORAL_TICK_SPACING = 84;
/** What a chart's y axis (its labels and title) takes of the width, in pixels. */
const Y_AXIS_ALLOWANCE = 64;

/** A naive date-time of a result ("2025-06-01T00:00:00.000") as a Vega-Lite DateTime in the chart's (local) time. */
function dateTimeOf(value: string): JsonObject | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2}))?/.exec(value);
  if (!m) return null;
  const out: JsonObject = { year: Number(m[1]), month: Number(m[2]), date: Number(m[3]) };
  if (m[4] && (m[4] !== "00" || m[5] !== "00")) Object.assign(out, { hours: Number(m[4]), minutes: Number(m[5]) });
  return out;
}

/** Applies `change` to the x encoding of the spec and of each of its layers. */
function mapTemporalX(spec: VegaLiteSpec, change: (x: JsonObject) => JsonObject | null): VegaLiteSpec {
  const encode = (encoding: Json | undefined): Json | undefined => {
    if (!isObject(encoding) || !isObject(encoding.x) || encoding.x.type !== "temporal") return encoding;
    const next = change(encoding.x);
    return next ? { ...encoding, x: next } : encoding;
  };
  const out: VegaLiteSpec = { ...spec };
  if (out.encoding) out.encoding = encode(out.encoding)!;
  if (Array.isArray(out.layer)) out.layer = out.layer.map((layer) => (isObject(layer) ? mapTemporalX(layer as VegaLiteSpec, change) : layer));
  return out;
}

/**
 * Ticks of a temporal x axis at the result's own time buckets, so the axis follows the data's
 * grain (no weekly ticks under monthly data) and can end at the data's end; `fitTemporalTicks`
 * keeps as many as the drawn width holds. Only for an encoding with a field, no time unit and
 * no ticks of its own.
 */
export function withTemporalTicks(spec: VegaLiteSpec, rows: readonly Record<string, unknown>[], granularity: string | undefined): VegaLiteSpec {
  if (!granularity || !TEMPORAL_AXIS_FORMATS[granularity]) return spec;
  return mapTemporalX(spec, (def) => {
    if ("timeUnit" in def || typeof def.field !== "string" || def.axis === null) return null;
    const axis = isObject(def.axis) ? def.axis : {};
    if ("values" in axis || "tickCount" in axis) return null;
    // The spec names the time dimension; the result's column is the dimension at its grain.
    const field = def.field.replace(/\\\./g, ".");
    const first = rows[0] ?? {};
    const key = [field, `${field}.${granularity}`].find((k) => k in first) ?? Object.keys(first).find((k) => k.startsWith(`${field}.`));
    if (!key) return null;
    const buckets = [...new Set(rows.map((r) => r[key]).filter((v): v is string => typeof v === "string"))].sort();
    const values = buckets.map(dateTimeOf);
    if (values.length < 2 || values.some((v) => v === null)) return null;
    return { ...def, axis: { ...axis, values: values as JsonObject[] } };
  });
}

/**
 * Thins the tick values of a temporal x axis to what `width` pixels hold: every n-th, counted
 * back from the last, so the data's last bucket keeps its label (vega's own overlap removal
 * would drop every other label, the last among them).
 */
export function fitTemporalTicks(spec: VegaLiteSpec, width: number): VegaLiteSpec {
  if (!width) return spec;
  // The plot is the width less the y axis and its labels.
  const most = Math.max(2, Math.floor((width - Y_AXIS_ALLOWANCE) / TEMPORAL_TICK_SPACING));
  return mapTemporalX(spec, (def) => {
    const axis = isObject(def.axis) ? def.axis : null;
    const values = axis && Array.isArray(axis.values) ? axis.values : null;
    if (!values || values.length <= most) return null;
    const step = Math.ceil(values.length / most);
    const kept = values.filter((_, i) => (values.length - 1 - i) % step === 0);
    return { ...def, axis: { ...axis, values: kept } };
  });
}
