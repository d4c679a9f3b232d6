/**
 * The tools a provider may call. None of them takes SQL: `run_query` takes a semantic query,
 * validated and compiled under the viewer's security context by the query engine, so the
 * viewer's row-level security applies to every row a model or the chat ever sees.
 */
import { match } from "@formatjs/intl-localematcher";
import { z } from "zod";
import { PeriodComparison } from "../../schema/dashboard";
import { compareOutputs, ExplainInputSchema, SemanticQuerySchema, type ExplainInput, type QueryFilter, type SemanticQuery } from "../../schema/semantic-query";
import { timePartLabel } from "../../schema/time-part-labels";
import type { MemberAnnotation } from "../semantic/compiler/annotation";
import { DomainError } from "../domain/errors";
import { explainChange } from "../semantic/explain";
import { isSegment } from "../semantic/explain-segments";
import { membersNamedByFormula } from "../semantic/formula/named-members";
import type { MetaSource } from "../semantic/query-engine";
import { MAX_ROWS_TO_MODEL, MAX_TABLE_ROWS, MAX_TOOL_RESULT_CHARS, type AnswerPart, type ChartRequest, type TurnContext } from "./types";

export const TOOL_NAMES = ["list_views", "describe_view", "run_query", "render_chart", "save_report"] as const;
export type ToolName = (typeof TOOL_NAMES)[number];

const ChartRequestSchema = z.strictObject({
  type: z.enum(["bar", "line", "area", "point", "arc"]),
  x: z.string().max(200),
  y: z.array(z.string().max(200)).min(1).max(10),
  series: z.string().max(200).optional(),
});

/**
 * `run_query` with `explain` instead of `query`: an explanation of a change. One tool rather than
 * two, so the tool lists the surfaces offer stay as they are.
 */
const ExplainArgsSchema = z.strictObject({ explain: ExplainInputSchema });

const argSchemas = {
  list_views: z.strictObject({}),
  describe_view: z.strictObject({ view: z.string().max(200) }),
  run_query: z.strictObject({ query: SemanticQuerySchema, periodComparisons: z.array(PeriodComparison).max(5).optional() }),
  render_chart: ChartRequestSchema,
  save_report: z.strictObject({ title: z.string().min(1).max(200), query: SemanticQuerySchema }),
} as const;

/** JSON Schemas of the tools, as an OpenAI-compatible server expects them. */
export function toolDefinitions(allowAuthoring: boolean) {
  const defs: { name: string; description: string; parameters: unknown }[] = [
    { name: "list_views", description: "List the views of the data model the viewer can query.", parameters: { type: "object", properties: {} } },
    {
      name: "describe_view",
      description: "The measures and dimensions of one view: names, titles, types, descriptions, synonyms.",
      parameters: { type: "object", properties: { view: { type: "string" } }, required: ["view"] },
    },
    {
      name: "run_query",
      description:
        "Run a semantic query (never SQL). Members are `<view>.<member>`. Fields: measures, dimensions, timeDimensions [{dimension, granularity or part (dayOfWeek, hourOfDay, dayOfMonth, weekOfYear, monthOfYear, quarterOfYear), dateRange}], filters [{member, operator, values}] (operators include gt, gte, lt, lte, and between / notBetween with values [low, high], both included; a filter on a measure applies after aggregation), order, limit. " +
        "To compare any two date ranges (Q1 2025 vs Q1 2024, this quarter vs last quarter) add compare {dimension: <time dimension>, baseline: <range compared against>, current: <range compared>}: each measure m then gives columns m.baseline, m.current, m.change, m.relativeChange (a fraction; order by these, not by m). " +
        "For shares, running totals and rankings add calculations [{type: percentOfTotal | runningTotal | rank, measure: <a measure column>, within?: [dimension columns], along?: <dimension column a running total runs along>, name?}] (columns <measure>.<type>, shares as fractions). " +
        "For a figure the model has no member for (average revenue per customer, the share of returned orders) add calculatedFields [{name, formula, format?: number | percent | currency}] and name it <view>.<name>: a formula over the view's members, never SQL: revenue / customer_count, count(where status = 'returned') / count, sum(amount where quantity > 3). " +
        "For the top N within each group (the best-selling product in each category) add groupLimit {within: [dimension columns], limit: N, order?: [[column, desc]]}. " +
        "For growth by fixed offsets on a granularity add periodComparisons [{measure, timeDimension (with a granularity in the query), offset: {amount: 1, unit}, outputs: [previous, change, percentChange column names]}]. " +
        'To explain why a count or sum changed between two date ranges, send explain {measure, timeDimension, baseline, current, candidates: [dimensions], filters?, limit?} instead of query: it answers the dimension values that moved it most, ranked by the size of their change, each with its share of the total change. To explain why it differs between two segments ("why is revenue in Germany lower than in France"), send baseline and current as {filters: [...]} each, without timeDimension.',
      parameters: {
        type: "object",
        properties: {
          query: z.toJSONSchema(SemanticQuerySchema),
          periodComparisons: z.toJSONSchema(z.array(PeriodComparison).max(5)),
          explain: z.toJSONSchema(ExplainInputSchema),
        },
        description: "Either query (with periodComparisons if wanted) or explain.",
      },
    },
    { name: "render_chart", description: "Chart the last query's rows: {type, x, y[], series}.", parameters: z.toJSONSchema(ChartRequestSchema) },
  ];
  if (allowAuthoring) {
    defs.push({
      name: "save_report",
      description: "Save a query as a report in the viewer's workspace.",
      parameters: { type: "object", properties: { title: { type: "string" }, query: z.toJSONSchema(SemanticQuerySchema) }, required: ["title", "query"] },
    });
  }
  return defs;
}

type DistributiveOmit<T, K extends keyof T> = T extends unknown ? Omit<T, K> : never;

/** What a tool call gives back: `content` for the model (size-capped), parts for the viewer. */
export interface ToolOutcome {
  ok: boolean;
  content: string;
  summary: string;
  parts: DistributiveOmit<AnswerPart, "id">[];
}

/** Rows of the last successful query of the turn (what `render_chart` draws). */
export interface ToolState {
  lastQuery?: SemanticQuery;
  lastComparisons?: PeriodComparison[];
  lastRows?: Record<string, unknown>[];
  /** The columns of the last query's table, as the answer shows them. */
  lastColumns?: Extract<AnswerPart, { type: "table" }>["columns"];
}

function cap(text: string): string {
  return text.length <= MAX_TOOL_RESULT_CHARS ? text : text.slice(0, MAX_TOOL_RESULT_CHARS - 20) + "…(truncated)";
}

/**
 * A turn's views do not change while it runs: they are worked out once per security context,
 * engine, views and members (a turn's contexts in other languages are copies that share them).
 */
interface VisibleSources {
  engine: TurnContext["engine"];
  views: TurnContext["views"];
  members: TurnContext["members"];
  sources: MetaSource[];
  /** Every member of the sources, by name. */
  allowed: Set<string>;
}
const visibleOfContext = new WeakMap<TurnContext["securityContext"], VisibleSources>();

function visible(ctx: TurnContext): VisibleSources {
  const kept = visibleOfContext.get(ctx.securityContext);
  if (kept && kept.engine === ctx.engine && kept.views === ctx.views && kept.members === ctx.members) return kept;
  const sources = computeVisibleSources(ctx);
  const allowed = new Set(sources.flatMap((s) => [...s.measures, ...s.dimensions].map((m) => m.name)));
  const fresh = { engine: ctx.engine, views: ctx.views, members: ctx.members, sources, allowed };
  visibleOfContext.set(ctx.securityContext, fresh);
  return fresh;
}

function visibleSources(ctx: TurnContext): MetaSource[] {
  return visible(ctx).sources;
}

function computeVisibleSources(ctx: TurnContext): MetaSource[] {
  const sources = ctx.engine.meta(ctx.securityContext).sources;
  const views = sources.some((s) => s.kind === "view") ? sources.filter((s) => s.kind === "view") : sources;
  const inScope = ctx.views ? views.filter((v) => ctx.views!.includes(v.name)) : views;
  if (!ctx.members) return inScope;
  const members = new Set(ctx.members);
  return inScope
    .map((v) => ({ ...v, measures: v.measures.filter((m) => members.has(m.name)), dimensions: v.dimensions.filter((d) => members.has(d.name)) }))
    .filter((v) => v.measures.length + v.dimensions.length > 0);
}

/** The members a query names (measures, dimensions, time dimensions, filters, order). */
export function membersOf(query: SemanticQuery): string[] {
  const out = [...(query.measures ?? []), ...(query.dimensions ?? []), ...(query.timeDimensions ?? []).map((t) => t.dimension)];
  const walk = (f: QueryFilter) => {
    if ("member" in f) out.push(f.member);
    else if ("or" in f) f.or.forEach(walk);
    else f.and.forEach(walk);
  };
  (query.filters ?? []).forEach(walk);
  // An order key may be a time dimension's column (`<dimension>.<granularity or part>`): the member is the dimension.
  const timeColumns = new Map<string, string>();
  for (const t of query.timeDimensions ?? [])
    for (const suffix of [t.granularity, t.part]) if (suffix) timeColumns.set(`${t.dimension}.${suffix}`, t.dimension);
  if (query.compare) out.push(query.compare.dimension);
  // Columns a query names besides members: compared measures (`<measure>.<output>`) and calculations, whose measures are listed already.
  const calculated = new Set((query.calculations ?? []).map((c) => c.name ?? `${c.measure}.${c.type}`));
  const measureColumns = new Map((query.measures ?? []).flatMap((m) => compareOutputs.map((o): [string, string] => [`${m}.${o}`, m])));
  const memberOfColumn = (k: string) => (calculated.has(k) ? [] : [timeColumns.get(k) ?? measureColumns.get(k) ?? k]);
  const order = query.order ?? [];
  for (const [m] of Array.isArray(order) ? order : Object.entries(order)) out.push(...memberOfColumn(m));
  for (const c of query.calculations ?? []) out.push(...[c.measure, ...(c.within ?? []), ...(c.along ? [c.along] : [])].flatMap(memberOfColumn));
  const g = query.groupLimit;
  if (g) out.push(...[...g.within, ...(g.order ?? []).map(([k]) => k)].flatMap(memberOfColumn));
  return throughCalculatedFields(out, query.calculatedFields ?? []);
}

/**
 * A calculated field stands for the members its formula names: `<view>.<field>` is replaced by
 * them (bare names read in that view, or in the view of the query's first member when the field
 * is not used), so a formula cannot reach past the members the surface allows.
 */
function throughCalculatedFields(named: string[], fields: { name: string; formula: string }[]): string[] {
  if (fields.length === 0) return named;
  const fieldNames = new Set(fields.map((f) => f.name));
  const isField = (m: string) => fieldNames.has(m.slice(m.indexOf(".") + 1));
  const members = named.filter((m) => !isField(m));
  const firstView = named[0]?.split(".")[0];
  for (const field of fields) {
    const views = new Set(named.filter((m) => m.endsWith(`.${field.name}`) && isField(m)).map((m) => m.split(".")[0]!));
    if (views.size === 0 && firstView) views.add(firstView);
    for (const view of views) members.push(...(membersNamedByFormula(field.formula, view) ?? []));
  }
  return members;
}

/** Above this many categories a bar chart of one measure is drawn sideways. */
const HORIZONTAL_BARS_FROM = 6;

/** A Vega-Lite spec for rows with the given columns. */
export function chartSpec(
  chart: ChartRequest,
  columns: ToolState["lastColumns"],
  rows: Record<string, unknown>[],
  locale = "en",
  /** The categories have an order of their own (the days of a week): they stay along the bottom. */
  ordered = false,
): Record<string, unknown> {
  const col = (k: string) => columns?.find((c) => c.key === k);
  // A part of time on the x axis: its values named in the viewer's language, in calendar order.
  const part = chart.type !== "arc" ? col(chart.x)?.timePart : undefined;
  if (part) {
    const labelled = `${chart.x}.label`;
    const ordered = [...rows].sort((a, b) => Number(a[chart.x]) - Number(b[chart.x]));
    const withLabels = ordered.map((r) => ({ ...r, [labelled]: timePartLabel(locale, part, Number(r[chart.x])) }));
    const spec = chartSpec(
      { ...chart, x: labelled },
      [...(columns ?? []), { key: labelled, title: col(chart.x)!.title, type: "string" }],
      withLabels,
      locale,
      true,
    ) as {
      encoding: { x: Record<string, unknown> };
    };
    spec.encoding.x = { ...spec.encoding.x, type: "ordinal", sort: [...new Set(withLabels.map((r) => r[labelled]))] };
    return spec;
  }
  // Values with a label in the viewer's language (a country's name for its code, a translated
  // status) are drawn by their labels, as the answer's table shows them.
  const labelled = [chart.x, ...(chart.series ? [chart.series] : [])].filter((k) => Object.keys(col(k)?.valueLabels ?? {}).length > 0);
  if (labelled.length) {
    const as = (k: string) => (labelled.includes(k) ? `${k}.label` : k);
    const withLabels = rows.map((r) => {
      const out = { ...r };
      for (const k of labelled) {
        const labels = col(k)!.valueLabels!;
        const value = r[k];
        // Own entries only: a raw value such as "constructor" is a value like any other.
        out[as(k)] = typeof value === "string" && Object.hasOwn(labels, value) ? labels[value] : value;
      }
      return out;
    });
    const labelColumns = labelled.map((k) => ({ key: as(k), title: col(k)!.title, type: "string" }));
    return chartSpec(
      { ...chart, x: as(chart.x), ...(chart.series ? { series: as(chart.series) } : {}) },
      [...(columns ?? []), ...labelColumns],
      withLabels,
      locale,
    );
  }
  const fieldType = (k: string) => {
    const t = col(k)?.type;
    return t === "time" ? "temporal" : t === "number" ? "quantitative" : "nominal";
  };
  const title = (k: string) => col(k)?.title ?? k;
  // A measure's axis speaks as its figures do: money with its currency sign and no cents, shares
  // as percentages (the dashboard's charts format theirs alike); several measures share an axis
  // only where they share a format.
  const axisOf = (keys: string[]) => {
    const formats = new Set(keys.map((k) => col(k)?.format));
    const format = formats.size === 1 ? [...formats][0] : undefined;
    return format === "currency" ? { axis: { format: "$,~f" } } : format === "percent" ? { axis: { format: ".0~%" } } : {};
  };
  // Vega-Lite reads dots in a field name as nested access: member names are escaped.
  const f = (k: string) => k.replace(/\./g, "\\.");
  const data = { values: rows.slice(0, MAX_TABLE_ROWS) };
  if (chart.type === "arc") {
    return {
      $schema: "https://vega.github.io/schema/vega-lite/v6.json",
      data,
      mark: { type: "arc", innerRadius: 40 },
      encoding: {
        theta: { field: f(chart.y[0]!), type: "quantitative", title: title(chart.y[0]!) },
        color: { field: f(chart.x), type: "nominal", title: title(chart.x) },
      },
    };
  }
  const xType = fieldType(chart.x);
  const sortByY = chart.type === "bar" && xType === "nominal";
  if (chart.y.length > 1) {
    // Each measure under its title, side by side (bars) or one line each, never stacked: the
    // series are figures to compare (a period and the one before it), not parts of a whole.
    const ys = chart.y.map((k, i) => ({ key: k, alias: `y${i}`, title: title(k) }));
    const seriesOf = ys.reduceRight((otherwise, y) => `datum.key === ${JSON.stringify(y.alias)} ? ${JSON.stringify(y.title)} : ${otherwise}`, "datum.key");
    return {
      $schema: "https://vega.github.io/schema/vega-lite/v6.json",
      data,
      transform: [
        ...ys.map((y) => ({ calculate: `datum[${JSON.stringify(y.key)}]`, as: y.alias })),
        { fold: ys.map((y) => y.alias), as: ["key", "value"] },
        { calculate: seriesOf, as: "series" },
      ],
      mark: { type: chart.type, tooltip: true, ...(chart.type === "line" ? { point: true } : {}) },
      encoding: {
        // Nominal categories keep the rows' order (a ranking stays a ranking).
        x: { field: f(chart.x), type: xType, title: title(chart.x), ...(xType === "nominal" ? { sort: null } : {}) },
        y: { field: "value", type: "quantitative", title: null, ...axisOf(chart.y), ...(chart.type === "bar" ? { stack: null } : {}) },
        color: { field: "series", type: "nominal", title: null, sort: ys.map((y) => y.title) },
        ...(chart.type === "bar" ? { xOffset: { field: "series", sort: ys.map((y) => y.title) } } : {}),
      },
    };
  }
  if (sortByY && !ordered && !chart.series && rows.length > HORIZONTAL_BARS_FROM) {
    // Many categories read down the side, every name whole (as a dashboard's bar chart of them),
    // where under the bars only every third name would fit.
    return {
      $schema: "https://vega.github.io/schema/vega-lite/v6.json",
      data,
      mark: { type: "bar", tooltip: true },
      encoding: {
        y: { field: f(chart.x), type: "nominal", title: null, sort: "-x" },
        x: { field: f(chart.y[0]!), type: "quantitative", title: title(chart.y[0]!), ...axisOf(chart.y) },
      },
    };
  }
  return {
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    data,
    mark: { type: chart.type, tooltip: true, ...(chart.type === "line" ? { point: true } : {}) },
    encoding: {
      x: { field: f(chart.x), type: xType, title: title(chart.x), ...(sortByY ? { sort: "-y" } : {}) },
      y: { field: f(chart.y[0]!), type: "quantitative", title: title(chart.y[0]!), ...axisOf(chart.y) },
      ...(chart.series ? { color: { field: f(chart.series), type: "nominal", title: title(chart.series) } } : {}),
    },
  };
}

function issues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`)
    .join("; ");
}

/** The dashboard filters of the surface, added to a query (never removed: the model cannot widen what the viewer sees). */
function withExtraFilters(query: SemanticQuery, ctx: TurnContext): SemanticQuery {
  if (!ctx.extraFilters?.length) return query;
  return { ...query, filters: [...(query.filters ?? []), ...ctx.extraFilters] };
}

/** How a tool call's arguments came. */
export interface ToolCallOptions {
  /**
   * Built by the platform's own typed code (the builtin engine), not received as JSON: the
   * arguments' shape is not parsed again here. A query still passes the engine's validation
   * (its shape and every member against the model and the viewer's policies) when it runs.
   */
  built?: boolean;
}

/**
 * Runs one tool call. Arguments arrive as untrusted JSON (or a string that should be JSON);
 * every problem becomes a refusal the model can read and repair, never an exception.
 */
export async function runTool(name: string, rawArgs: unknown, ctx: TurnContext, state: ToolState, options: ToolCallOptions = {}): Promise<ToolOutcome> {
  const refuse = (message: string): ToolOutcome => ({ ok: false, content: cap(JSON.stringify({ error: message })), summary: message, parts: [] });
  if (!(TOOL_NAMES as readonly string[]).includes(name))
    return refuse(
      `Unknown tool "${name.slice(0, 60)}". Tools: ${TOOL_NAMES.filter((n) => n !== "save_report" || ctx.allowAuthoring).join(", ")}. SQL is not accepted.`,
    );
  if (name === "save_report" && !ctx.allowAuthoring) return refuse("save_report is not allowed here (allowChatWorkspaceAuthoring is off)");
  let args: unknown = rawArgs;
  if (typeof rawArgs === "string") {
    try {
      args = rawArgs.trim() === "" ? {} : JSON.parse(rawArgs);
    } catch {
      return refuse("The arguments are not valid JSON");
    }
  }
  const explaining = name === "run_query" && typeof args === "object" && args !== null && "explain" in args;
  if (explaining) {
    const explain = ExplainArgsSchema.safeParse(args);
    if (!explain.success) return refuse(`Invalid arguments: ${issues(explain.error)}.`);
    return explainTool(explain.data.explain, ctx, state, refuse);
  }
  type Parsed = { success: true; data: z.infer<(typeof argSchemas)[ToolName]> };
  const parsed =
    options.built && typeof args === "object" && args !== null ? ({ success: true, data: args } as Parsed) : argSchemas[name as ToolName].safeParse(args);
  if (!parsed.success) {
    const sqlHint = typeof args === "object" && args !== null && "sql" in args ? " SQL is never accepted: send a semantic query." : "";
    return refuse(`Invalid arguments: ${issues(parsed.error)}.${sqlHint}`);
  }

  const sources = visibleSources(ctx);
  if (name === "list_views") {
    const list = sources.map((s) => ({ name: s.name, title: s.title, description: s.description }));
    return { ok: true, content: cap(JSON.stringify(list)), summary: `${list.length} views`, parts: [] };
  }
  if (name === "describe_view") {
    const { view } = parsed.data as { view: string };
    const source = sources.find((s) => s.name === view);
    if (!source) return refuse(`No view "${view.slice(0, 60)}". Views: ${sources.map((s) => s.name).join(", ")}`);
    const member = (m: MetaSource["measures"][number]) => ({
      name: m.name,
      title: m.title,
      type: m.type,
      ...(m.description ? { description: m.description } : {}),
      ...(Array.isArray(m.meta?.synonyms) ? { synonyms: m.meta.synonyms } : {}),
    });
    const out = { name: source.name, title: source.title, measures: source.measures.map(member), dimensions: source.dimensions.map(member) };
    return { ok: true, content: cap(JSON.stringify(out)), summary: `${source.measures.length} measures, ${source.dimensions.length} dimensions`, parts: [] };
  }
  if (name === "run_query" || name === "save_report") {
    const query = withExtraFilters((parsed.data as { query: SemanticQuery }).query, ctx);
    const { allowed } = visible(ctx);
    const outside = membersOf(query).filter((m) => !allowed.has(m));
    if (outside.length) return refuse(`Unknown or not allowed members: ${[...new Set(outside)].slice(0, 5).join(", ")}. Use describe_view.`);
    if (name === "save_report") {
      if (!ctx.saveReport) return refuse("save_report is not available on this surface");
      const title = "title" in parsed.data && typeof parsed.data.title === "string" ? parsed.data.title : "";
      const saved = await ctx.saveReport({ title, query });
      return { ok: true, content: JSON.stringify(saved), summary: `saved "${saved.title}"`, parts: [] };
    }
    const periodComparisons = name === "run_query" ? (parsed.data as { periodComparisons?: PeriodComparison[] }).periodComparisons : undefined;
    const compared = (periodComparisons ?? []).flatMap((c) => [c.measure, c.timeDimension]).filter((m) => !allowed.has(m));
    if (compared.length) return refuse(`Unknown or not allowed members: ${[...new Set(compared)].slice(0, 5).join(", ")}. Use describe_view.`);
    try {
      const loaded = await ctx.engine.load(query, {
        securityContext: ctx.securityContext,
        signal: ctx.signal,
        timeoutMs: ctx.queryTimeoutMs,
        ...(periodComparisons?.length ? { periodComparisons } : {}),
      });
      // Column titles in the surface's language, as the deployment's dictionaries have them.
      const result = ctx.translate ? ctx.translate(loaded) : loaded;
      const annotation = result.annotation;
      const columns = [
        annotation.timeDimensions,
        annotation.dimensions,
        annotation.measures,
        annotation.periodComparisons,
        annotation.compare,
        annotation.calculations,
      ]
        .flatMap((group): [string, MemberAnnotation][] => Object.entries(group ?? {}))
        .map(([key, a]) => ({
          key,
          title: a.shortTitle ?? a.title ?? key,
          type: a.type ?? "string",
          ...(a.format ? { format: a.format } : {}),
          ...(a.timePart ? { timePart: a.timePart } : {}),
          ...("output" in a && typeof a.output === "string" ? { output: a.output } : {}),
          // The text shown for a raw value in the viewer's language (dictionary entries, country names): rows stay raw.
          ...(a.valueLabels ? { valueLabels: a.valueLabels } : {}),
        }))
        .filter((c) => result.data.length === 0 || c.key in result.data[0]!);
      const rows = result.data as Record<string, unknown>[];
      state.lastQuery = query;
      state.lastComparisons = periodComparisons?.length ? periodComparisons : undefined;
      state.lastRows = rows;
      state.lastColumns = columns;
      let sql: string | undefined;
      if (ctx.includeSql)
        sql = ctx.engine.sql(query, { securityContext: ctx.securityContext, ...(periodComparisons?.length ? { periodComparisons } : {}) }).sql;
      return {
        ok: true,
        // Written when a model reads it (the builtin engine never does).
        get content() {
          return cap(JSON.stringify({ rowCount: rows.length, columns: columns.map((c) => c.key), rows: rows.slice(0, MAX_ROWS_TO_MODEL) }));
        },
        summary: `${rows.length} rows`,
        parts: [
          { type: "query", query, ...(periodComparisons?.length ? { periodComparisons } : {}), ...(sql ? { sql } : {}) },
          { type: "table", columns, rows: rows.slice(0, MAX_TABLE_ROWS), truncated: rows.length > MAX_TABLE_ROWS },
        ],
      };
    } catch (e) {
      if (e instanceof DomainError) return refuse(e.message);
      throw e;
    }
  }
  // render_chart
  const chart = parsed.data as ChartRequest;
  if (!state.lastRows || !state.lastColumns) return refuse("Run a query before render_chart");
  const keys = new Set(state.lastColumns.map((c) => c.key));
  const missing = [chart.x, ...chart.y, ...(chart.series ? [chart.series] : [])].filter((k) => !keys.has(k));
  if (missing.length) return refuse(`Not columns of the last query: ${missing.slice(0, 5).join(", ")}`);
  const spec = chartSpec(chart, state.lastColumns, state.lastRows, ctx.locale);
  return { ok: true, content: JSON.stringify({ rendered: true }), summary: `${chart.type} chart`, parts: [{ type: "chart", spec, chart }] };
}

/** The columns of an explanation: dimension, value, baseline, current, change, share of the change. */
const EXPLAIN_TITLES = {
  en: ["Dimension", "Value", "Before", "After", "Change", "Share of the change"],
  de: ["Dimension", "Wert", "Vorher", "Nachher", "Veränderung", "Anteil an der Veränderung"],
  es: ["Dimensión", "Valor", "Antes", "Después", "Cambio", "Parte del cambio"],
} as const;
const languageOf = (locale: string): keyof typeof EXPLAIN_TITLES => {
  try {
    return match([locale], Object.keys(EXPLAIN_TITLES), "en") as keyof typeof EXPLAIN_TITLES;
  } catch {
    return "en";
  }
};

/** The table of an explanation: titles in `locale`'s language (en, de, es), figures in the measure's format. */
export function explainColumns(locale: string, format: string | undefined) {
  const [dimension, value, baseline, current, change, share] = EXPLAIN_TITLES[languageOf(locale)];
  const figure = { type: "number", ...(format ? { format } : {}) };
  return [
    { key: "dimension", title: dimension, type: "string" },
    { key: "value", title: value, type: "string" },
    { key: "baseline", title: baseline, ...figure },
    { key: "current", title: current, ...figure },
    { key: "change", title: change, ...figure, output: "change" },
    { key: "share", title: share, type: "number", format: "percent" },
  ];
}

/** `run_query` with `explain`: the largest contributors to a change, as a table the model reads and the viewer sees (and `render_chart` can draw). */
async function explainTool(input: ExplainInput, ctx: TurnContext, state: ToolState, refuse: (message: string) => ToolOutcome): Promise<ToolOutcome> {
  const { sources, allowed } = visible(ctx);
  // Two segments name members in their filters, as the shared filters do.
  const sideFilters = [input.baseline, input.current].flatMap((side) => (isSegment(side) ? side.filters : []));
  const named = [
    input.measure,
    ...(input.timeDimension !== undefined ? [input.timeDimension] : []),
    ...input.candidates,
    ...membersOf({ filters: [...(input.filters ?? []), ...sideFilters] as QueryFilter[] }),
  ];
  const outside = named.filter((m) => !allowed.has(m));
  if (outside.length) return refuse(`Unknown or not allowed members: ${[...new Set(outside)].slice(0, 5).join(", ")}. Use describe_view.`);
  try {
    // The surface's dashboard filters narrow the explanation as they narrow every query.
    const filters = [...(input.filters ?? []), ...(ctx.extraFilters ?? [])];
    const result = await explainChange(
      ctx.engine,
      { ...input, ...(filters.length ? { filters } : {}) },
      { securityContext: ctx.securityContext, signal: ctx.signal, timeoutMs: ctx.queryTimeoutMs },
    );
    // Each dimension by its title in the model, the columns in the viewer's language.
    const titles = new Map(sources.flatMap((s) => s.dimensions.map((d): [string, string] => [d.name, d.shortTitle])));
    const rows = result.contributors.map((c) => ({
      ...c,
      dimension: titles.get(c.dimension) ?? c.dimension,
      value: c.value === null ? null : String(c.value),
    }));
    const columns = explainColumns(ctx.locale, sources.flatMap((s) => s.measures).find((m) => m.name === input.measure)?.format);
    state.lastRows = rows;
    state.lastColumns = columns;
    state.lastComparisons = undefined;
    return {
      ok: true,
      content: cap(JSON.stringify(result)),
      summary: `${rows.length} contributors to a change of ${result.total.change}`,
      parts: [{ type: "table", columns, rows: rows.slice(0, MAX_TABLE_ROWS), truncated: rows.length > MAX_TABLE_ROWS }],
    };
  } catch (e) {
    if (e instanceof DomainError) return refuse(e.message);
    throw e;
  }
}
