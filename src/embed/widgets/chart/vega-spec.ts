/**
 * Shapes a report's vega-lite spec and its query rows into a renderable spec. Member names
 * contain dots ("sales.revenue"), which vega-lite reads as nested paths, so every column is
 * renamed to a dot-free field ("sales__revenue") in the rows and in every spec reference to
 * it; clicks map the renamed field back to the member.
 */
import type { QueryAnnotation } from "../../shell/platform-api";
import { titleOfColumn } from "../../export/export-columns";
import { isMeasureLike, resultColumnOf, resultColumnsOf, type ResultColumn } from "../../export/result-columns";
import { numericValue } from "../query/format-cell";
import type { CategoryColorRegistry } from "./category-colors";

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type VegaLiteSpec = { [key: string]: Json };

/** Dot-free field name of a column. */
export function safeFieldName(column: string): string {
  return column.replace(/\\\./g, ".").replace(/\./g, "__");
}

export interface FieldMap {
  /** column (and aliases, and the escaped form) → safe field */
  toSafe: Map<string, string>;
  /** safe field → column */
  toColumn: Map<string, string>;
}

/**
 * Columns of the rows plus aliases: `view.time.<grain>` names of the spec that a time grain
 * switch replaced, mapped to the column the result has now.
 */
export function buildFieldMap(columns: Iterable<string>, aliases: Readonly<Record<string, string>> = {}): FieldMap {
  const toSafe = new Map<string, string>();
  const toColumn = new Map<string, string>();
  for (const column of columns) {
    const safe = safeFieldName(column);
    toSafe.set(column, safe);
    toSafe.set(column.replace(/\./g, "\\."), safe);
    toColumn.set(safe, column);
  }
  for (const [alias, column] of Object.entries(aliases)) {
    const safe = safeFieldName(column);
    toSafe.set(alias, safe);
    toSafe.set(alias.replace(/\./g, "\\."), safe);
    toColumn.set(safe, column);
  }
  return { toSafe, toColumn };
}

// Keys whose string values are prose, never field references.
const PROSE_KEYS = new Set(["title", "description", "subtitle", "name", "$schema", "format", "formatType", "mark", "type"]);
const DATUM_REFERENCE = /datum\[(['"])([^'"\]]+)\1\]|datum\.([A-Za-z_][\w]*(?:\.[A-Za-z_][\w]*)+)/g;

function rewriteExpression(expression: string, fields: FieldMap): string {
  return expression.replace(DATUM_REFERENCE, (whole, _q: string, bracketed: string | undefined, dotted: string | undefined) => {
    const name = bracketed ?? dotted!;
    const safe = fields.toSafe.get(name);
    return safe ? `datum[${JSON.stringify(safe)}]` : whole;
  });
}

function rewrite(node: Json, fields: FieldMap, key: string | null): Json {
  if (typeof node === "string") {
    if (key !== null && PROSE_KEYS.has(key)) return node;
    const safe = fields.toSafe.get(node);
    if (safe) return safe;
    return node.includes("datum") ? rewriteExpression(node, fields) : node;
  }
  if (Array.isArray(node)) return node.map((item) => rewrite(item, fields, key));
  if (node && typeof node === "object") {
    const out: { [k: string]: Json } = {};
    for (const [k, v] of Object.entries(node)) out[k] = rewrite(v, fields, k);
    return out;
  }
  return node;
}

/** Rows with renamed fields; numeric text of measure columns becomes numbers. */
export function shapeRows(rows: readonly Record<string, unknown>[], fields: FieldMap, numericColumns: ReadonlySet<string>): Record<string, unknown>[] {
  return rows.map((row) => {
    const out: Record<string, unknown> = {};
    for (const [column, value] of Object.entries(row)) {
      const safe = fields.toSafe.get(column) ?? safeFieldName(column);
      out[safe] = numericColumns.has(column) ? (numericValue(value) ?? value) : value;
    }
    return out;
  });
}

const CHANNELS_WITH_TITLES = ["x", "y", "x2", "y2", "color", "size", "shape", "opacity", "theta", "radius", "text", "column", "row", "facet"];
const AXIS_CHANNELS = new Set(["x", "y", "x2", "y2"]);
const LEGEND_CHANNELS = new Set(["color", "size", "opacity"]);

/**
 * The d3 format of a number column (the chart's locale gives the symbols): a share as a percent
 * ("25%"), an amount of money with its currency, a difference with its sign. Plain numbers keep
 * the theme's formats (null). On an axis money has no cents: ticks are round numbers ("$0",
 * "$250", never "$0.00" under "1M"); from a thousand up the theme's compact labels apply.
 */
export function numberFormatOf(column: ResultColumn | undefined, place: "axis" | "text" = "text"): string | null {
  if (!column || column.type !== "number" || column.timePart) return null;
  const sign = column.signed ? "+" : "";
  if (column.format === "percent") return `${sign}.1~%`;
  if (column.format === "currency") return place === "axis" ? `${sign}$,~f` : `${sign}$,.2f`;
  return column.signed ? "+,.2~f" : null;
}

/** Most value labels an axis or legend carries in its label expression. */
const MAX_LABELLED_VALUES = 500;

/**
 * A Vega expression showing a raw value's label (a translation, a country's name) on an axis or
 * legend; the data keeps raw values, so clicks and drills filter by them. Two arrays looked up
 * with `indexof`, each string written as JSON: a label is text, never code.
 */
export function valueLabelExpr(labels: Readonly<Record<string, string>>): string | null {
  const entries = Object.entries(labels).slice(0, MAX_LABELLED_VALUES);
  if (!entries.length) return null;
  const keys = JSON.stringify(entries.map(([k]) => k));
  const texts = JSON.stringify(entries.map(([, v]) => v));
  return `indexof(${keys}, datum.value) < 0 ? datum.label : ${texts}[indexof(${keys}, datum.value)]`;
}

function labelValues(def: { [key: string]: Json }, channel: string | null, column: string, annotation: QueryAnnotation | undefined): void {
  const labels = annotation?.dimensions[column]?.valueLabels;
  const guide = channel && AXIS_CHANNELS.has(channel) ? "axis" : channel && LEGEND_CHANNELS.has(channel) ? "legend" : null;
  const expr = labels && guide ? valueLabelExpr(labels) : null;
  if (!expr || !guide || def[guide] === null) return;
  const own = def[guide];
  const current = own && typeof own === "object" && !Array.isArray(own) ? own : {};
  if (!("labelExpr" in current)) def[guide] = { ...current, labelExpr: expr };
}

/** Titles and number formats from the annotation on a field definition without its own. */
function describeField(def: { [key: string]: Json }, channel: string | null, fields: FieldMap, annotation: QueryAnnotation | undefined): void {
  if (typeof def.field !== "string") return;
  const column = fields.toColumn.get(def.field);
  if (!column) return;
  if (def.title === undefined) def.title = titleOfColumn(column, annotation);
  labelValues(def, channel, column, annotation);
  // Axes and legends take a format of their own; text and tooltips take it on the field.
  const guide = channel && AXIS_CHANNELS.has(channel) ? "axis" : channel && LEGEND_CHANNELS.has(channel) ? "legend" : null;
  const format =
    def.type === undefined || def.type === "quantitative" ? numberFormatOf(resultColumnOf(column, annotation), guide === "axis" ? "axis" : "text") : null;
  if (!format || "format" in def) return;
  if (!guide) {
    if (channel === null || channel === "text") def.format = format;
  } else if (def[guide] !== null) {
    const own = def[guide];
    const current = own && typeof own === "object" && !Array.isArray(own) ? own : {};
    if (!("format" in current)) def[guide] = { ...current, format };
  }
}

/**
 * A tooltip field of a labelled dimension shows the label: a calculated field beside the raw one
 * (which stays for drills), looked up as on axes.
 */
function labelTooltipField(spec: { [key: string]: Json }, def: { [key: string]: Json }, fields: FieldMap, annotation: QueryAnnotation | undefined): void {
  if (typeof def.field !== "string") return;
  const column = fields.toColumn.get(def.field);
  const entries = Object.entries((column && annotation?.dimensions[column]?.valueLabels) ?? {}).slice(0, MAX_LABELLED_VALUES);
  if (!entries.length) return;
  const as = `${def.field}__label`;
  const ref = `datum[${JSON.stringify(def.field)}]`;
  const keys = JSON.stringify(entries.map(([k]) => k));
  const texts = JSON.stringify(entries.map(([, v]) => v));
  const transforms = Array.isArray(spec.transform) ? spec.transform : [];
  if (!transforms.some((t) => t && typeof t === "object" && !Array.isArray(t) && t.as === as))
    spec.transform = [...transforms, { calculate: `indexof(${keys}, ${ref}) < 0 ? ${ref} : ${texts}[indexof(${keys}, ${ref})]`, as }];
  def.field = as;
}

function addTitles(spec: { [key: string]: Json }, fields: FieldMap, annotation: QueryAnnotation | undefined): void {
  const encoding = spec.encoding;
  if (encoding && typeof encoding === "object" && !Array.isArray(encoding)) {
    for (const channel of CHANNELS_WITH_TITLES) {
      const def = encoding[channel];
      if (def && typeof def === "object" && !Array.isArray(def)) describeField(def, channel, fields, annotation);
    }
    const tooltip = encoding.tooltip;
    for (const def of Array.isArray(tooltip) ? tooltip : tooltip && typeof tooltip === "object" ? [tooltip] : [])
      if (def && typeof def === "object" && !Array.isArray(def)) {
        describeField(def, null, fields, annotation);
        labelTooltipField(spec, def, fields, annotation);
      }
  }
  for (const key of ["layer", "concat", "hconcat", "vconcat"]) {
    const children = spec[key];
    if (Array.isArray(children))
      for (const child of children) if (child && typeof child === "object" && !Array.isArray(child)) addTitles(child, fields, annotation);
  }
  const inner = spec.spec;
  if (inner && typeof inner === "object" && !Array.isArray(inner)) addTitles(inner, fields, annotation);
}

/** A grain switch makes `timeUnit`s of the old grain wrong; the data is already truncated. */
function dropTimeUnits(node: Json, safeTimeFields: ReadonlySet<string>): Json {
  if (Array.isArray(node)) return node.map((n) => dropTimeUnits(n, safeTimeFields));
  if (node && typeof node === "object") {
    const out: { [k: string]: Json } = {};
    for (const [k, v] of Object.entries(node)) {
      if (k === "timeUnit" && typeof node.field === "string" && safeTimeFields.has(node.field)) continue;
      out[k] = dropTimeUnits(v, safeTimeFields);
    }
    return out;
  }
  return node;
}

export interface PrepareSpecOptions {
  annotation?: QueryAnnotation;
  /** Spec column names → result columns, after a time grain switch. */
  aliases?: Readonly<Record<string, string>>;
  /** Vega config (theme); merged under the spec's own config. */
  config?: Record<string, unknown>;
  /** Gives categories of colour encodings fixed palette slots across results (stable colours). */
  categoryColors?: CategoryColorRegistry;
}

export interface PreparedSpec {
  spec: VegaLiteSpec;
  fields: FieldMap;
}

function columnsOf(rows: readonly Record<string, unknown>[], annotation: QueryAnnotation | undefined): string[] {
  const columns = new Set<string>();
  for (const row of rows.slice(0, 50)) for (const key of Object.keys(row)) columns.add(key);
  for (const column of resultColumnsOf(annotation)) columns.add(column.key);
  return [...columns];
}

/** The renderable spec: data injected, fields renamed, titles from the annotation, sized to its container. */
export function prepareVegaLiteSpec(spec: VegaLiteSpec, rows: readonly Record<string, unknown>[], options: PrepareSpecOptions = {}): PreparedSpec {
  const fields = buildFieldMap(columnsOf(rows, options.annotation), options.aliases);
  const { data: _data, datasets: _datasets, ...rest } = spec;
  let out = rewrite(rest, fields, null) as VegaLiteSpec;
  if (options.aliases && Object.keys(options.aliases).length > 0) {
    out = dropTimeUnits(out, new Set(Object.values(options.aliases).map(safeFieldName))) as VegaLiteSpec;
  }
  addTitles(out, fields, options.annotation);
  const measureColumns = new Set(resultColumnsOf(options.annotation).flatMap((c) => (isMeasureLike(c) ? [c.key] : [])));
  for (const column of fields.toColumn.values()) if (/_(prev|next)_/.test(column)) measureColumns.add(column);
  const values = shapeRows(rows, fields, measureColumns);
  const palette = ((options.config?.range as { category?: unknown } | undefined)?.category ?? null) as string[] | null;
  if (options.categoryColors && Array.isArray(palette) && palette.length > 0) fixCategoryColors(out, values, fields, options.categoryColors, palette);
  addHeadroom(out, values);
  // Layers size to the container like single views; concatenations and facets size their parts.
  const isComposite = ["concat", "hconcat", "vconcat", "facet", "repeat"].some((k) => k in out);
  return {
    fields,
    spec: {
      $schema: "https://vega.github.io/schema/vega-lite/v6.json",
      ...(isComposite ? {} : { width: "container", height: "container" }),
      autosize: { type: "fit", contains: "padding", resize: true },
      ...out,
      data: { values: values as Json[] },
      config: { ...(options.config ?? {}), ...((out.config as Record<string, Json> | undefined) ?? {}) } as Json,
    },
  };
}

/** Member and value of a clicked mark, for drilldown: the first measure field in the datum. */
export function drilldownTarget(
  datum: Record<string, unknown> | null | undefined,
  fields: FieldMap,
  measures: readonly string[],
): { member: string; value: unknown; row: Record<string, unknown> } | null {
  if (!datum) return null;
  const row: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(datum)) {
    const column = fields.toColumn.get(key);
    if (column) row[column] = value;
  }
  const member = measures.find((m) => m in row);
  return member ? { member, value: row[member], row } : null;
}

export { TEMPORAL_AXIS_FORMATS, withTemporalAxisFormat, withTemporalTicks, fitTemporalTicks } from "./temporal-axis";

type JsonObject = { [key: string]: Json };
const isObject = (node: Json | undefined): node is JsonObject => !!node && typeof node === "object" && !Array.isArray(node);

/** Single views of a spec: itself and its layers (a layer inherits the parent's encoding). */
function eachView(spec: JsonObject, visit: (mark: string | null, encoding: JsonObject | null) => void, parentEncoding: JsonObject | null = null): void {
  const markOf = (m: Json | undefined) => (typeof m === "string" ? m : isObject(m) && typeof m.type === "string" ? m.type : null);
  const encoding = isObject(spec.encoding) ? spec.encoding : null;
  if (spec.mark !== undefined) visit(markOf(spec.mark), encoding ?? parentEncoding);
  else if (encoding) visit(null, encoding);
  if (Array.isArray(spec.layer)) for (const layer of spec.layer) if (isObject(layer)) eachView(layer, visit, encoding ?? parentEncoding);
}

/**
 * A nominal colour encoding without a scale of its own gets an explicit domain (the values in
 * this result) and range (each value's fixed palette slot), so a category keeps its colour when
 * filters change what else is on the chart.
 */
function fixCategoryColors(
  spec: JsonObject,
  values: readonly Record<string, unknown>[],
  fields: FieldMap,
  registry: CategoryColorRegistry,
  palette: string[],
): void {
  eachView(spec, (_mark, encoding) => {
    const color = encoding?.color;
    if (!isObject(color) || typeof color.field !== "string" || (color.type !== "nominal" && color.type !== undefined)) return;
    if (isObject(color.scale) && ("domain" in color.scale || "range" in color.scale || "scheme" in color.scale)) return;
    if (color.scale === null) return;
    const field = color.field;
    const present = [
      ...new Set(
        values
          .map((row) => row[field])
          .filter((v) => v !== null && v !== undefined)
          .map(String),
      ),
    ].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    if (present.length === 0) return;
    const slots = registry.slotsFor(fields.toColumn.get(field) ?? field, present);
    color.scale = { ...(isObject(color.scale) ? color.scale : {}), domain: present, range: slots.map((slot) => palette[slot % palette.length]!) };
  });
}

/** Share of the largest value added above it on line and area charts, so the line never runs into the top edge. */
export const LINE_HEADROOM = 0.08;

function addHeadroom(spec: JsonObject, values: readonly Record<string, unknown>[]): void {
  eachView(spec, (mark, encoding) => {
    if (!mark || !["line", "area", "point", "trail"].includes(mark)) return;
    const y = encoding?.y;
    if (!isObject(y) || y.type !== "quantitative" || typeof y.field !== "string" || y.aggregate !== undefined || y.stack) return;
    if (isObject(y.scale) && ("domain" in y.scale || "domainMax" in y.scale)) return;
    if (y.scale === null) return;
    const field = y.field;
    let max = -Infinity;
    for (const row of values) {
      const v = row[field];
      if (typeof v === "number" && Number.isFinite(v) && v > max) max = v;
    }
    if (!(max > 0)) return;
    y.scale = { ...(isObject(y.scale) ? y.scale : {}), domainMax: max * (1 + LINE_HEADROOM) };
  });
}

/** Legend columns that fit a chart `width` px wide (the theme's legend is horizontal, at the bottom). */
export function legendColumnsFor(width: number): number {
  return Math.max(1, Math.min(6, Math.floor((width - 8) / 120)));
}

/**
 * How many entries a spec's colour legend has, when the spec says: the domain of a colour scale
 * (set for nominal colours by `prepareVegaLiteSpec`) or the fields a `fold` transform turns into
 * series; null when it depends on the data.
 */
export function legendEntriesOf(spec: VegaLiteSpec): number | null {
  let entries: number | null = null;
  const count = (n: number) => (entries = Math.max(entries ?? 0, n));
  eachView(spec, (_mark, encoding) => {
    const color = encoding?.color;
    if (isObject(color) && isObject(color.scale) && Array.isArray(color.scale.domain)) count(color.scale.domain.length);
  });
  const transforms = [spec.transform, ...(Array.isArray(spec.layer) ? spec.layer.map((l) => (isObject(l) ? l.transform : undefined)) : [])];
  for (const list of transforms) if (Array.isArray(list)) for (const t of list) if (isObject(t) && Array.isArray(t.fold)) count(t.fold.length);
  return entries;
}

/**
 * Widest legend label (px) that keeps the legend's columns inside a chart `width` px wide: long
 * titles (a compared period) end in "…" instead of running off the edge; with fewer entries than
 * columns each label may take more room.
 */
export function legendLabelLimitFor(width: number, entries: number | null = null): number {
  const columns = Math.min(legendColumnsFor(width), Math.max(1, entries ?? Infinity));
  return Math.max(40, Math.min(160, Math.floor((width - 8) / columns) - 40));
}
