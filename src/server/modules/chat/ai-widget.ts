/**
 * The AI widget of a published dashboard: Markdown written from the data of the dashboard's
 * widgets under the viewer's security context and filters, with the widget's prompt answered
 * first when the question engine can read it. Answers are cached per viewer by a checksum of
 * the prompt, the queries and the filters, and marked stale when that checksum changes; a
 * regenerate writes a fresh one. A thread attached with `ai-widget-thread` gives the prompt
 * (its last question), answered again for each viewer — never the author's rows.
 *
 * With a model configured (`openai-compatible`), the model writes it through the same provider
 * interface as the chat, with its tools limited to the members of the dashboard's reports and
 * filters, under the viewer's filters and security context; without one, the builtin engine.
 */
import { createHash } from "node:crypto";
import { and, desc, eq } from "drizzle-orm";
import { parseFilterParameter, toQueryFilter } from "../../../schema/dashboard-filters";
import type { QueryFilter, SemanticQuery } from "../../../schema/semantic-query";
import type { AppDeps, Principal } from "../../context";
import { aiWidgetAnswers, aiWidgetThreads, chatMessages } from "../../db/schema";
import { badRequest, DomainError, forbidden, notFound } from "../../domain/errors";
import { readQuestion, refusalText, runQueryArgs, summarize, viewerIndexes } from "../../ai/builtin";
import { SAY } from "../../ai/builtin-language";
import { readAiSettings, type AiSettings } from "../../ai/settings";
import { membersOf, runTool, type ToolState } from "../../ai/tools";
import { providerFor, runTurn } from "../../ai/turn";
import { AiError, type AnswerPart, type TurnContext } from "../../ai/types";
import { resolveViewableDashboard, securityContextOf } from "../embed-access/service";
import { viewsOfSnapshots } from "./scope";

export interface AiWidgetAnswer {
  markdown: string;
  checksum: string;
  stale: boolean;
  generatedAt: string;
}

const MAX_REPORTS = 8;
const sha = (v: unknown) => createHash("sha256").update(JSON.stringify(v)).digest("hex");

function formatNumber(locale: string, value: unknown, format?: string): string {
  const n = Number(value);
  if (value === null || value === undefined || !Number.isFinite(n)) return String(value ?? "–");
  if (format === "currency") return new Intl.NumberFormat(locale, { style: "currency", currency: "USD", maximumFractionDigits: 0 }).format(n);
  if (format === "percent") return new Intl.NumberFormat(locale, { style: "percent", maximumFractionDigits: 1 }).format(n);
  return new Intl.NumberFormat(locale, { maximumFractionDigits: 1 }).format(n);
}

/** One line about one widget's rows: its figure, its leader, or its latest and highest point. */
function highlight(title: string, state: ToolState, locale: string): string | null {
  const rows = state.lastRows ?? [];
  const columns = state.lastColumns ?? [];
  const measures = state.lastQuery?.measures ?? [];
  const measure = columns.find((c) => measures.includes(c.key));
  if (!measure || rows.length === 0) return null;
  const dims = columns.filter((c) => !measures.includes(c.key));
  const fmt = (v: unknown) => formatNumber(locale, v, measure.format);
  if (dims.length === 0) return `- **${title}**: ${fmt(rows[0]![measure.key])}`;
  const time = dims.find((d) => d.type === "time");
  if (time && dims.length === 1) {
    const sorted = [...rows].sort((a, b) => String(a[time.key]).localeCompare(String(b[time.key])));
    const latest = sorted[sorted.length - 1]!;
    const peak = [...rows].sort((a, b) => Number(b[measure.key]) - Number(a[measure.key]))[0]!;
    const day = (v: unknown) => String(v).slice(0, 10);
    if (rows.length === 1) return `- **${title}**: ${fmt(latest[measure.key])} (${day(latest[time.key])})`;
    return `- **${title}**: latest ${fmt(latest[measure.key])} (${day(latest[time.key])}), highest ${fmt(peak[measure.key])} (${day(peak[time.key])})`;
  }
  const label = (r: Record<string, unknown>) =>
    dims.map((d) => (d.type === "time" ? String(r[d.key] ?? "–").slice(0, 10) : String(r[d.key] ?? "–"))).join(" · ");
  const sorted = [...rows].sort((a, b) => Number(b[measure.key]) - Number(a[measure.key]));
  const tail = sorted
    .slice(1, 3)
    .map((r) => `${label(r)} (${fmt(r[measure.key])})`)
    .join(", ");
  return `- **${title}**: ${label(sorted[0]!)} leads with ${fmt(sorted[0]![measure.key])}${tail ? `, then ${tail}` : ""}`;
}

type Snapshot = { title?: string | null; name?: string | null; meta?: { query?: unknown } | null };

/** The builtin engine's Markdown: the prompt answered when it can be read, then a line per report. */
export async function builtinMarkdown(ctx: TurnContext, prompt: string, snapshots: Snapshot[], locale: string): Promise<string> {
  const lines: string[] = [];
  if (prompt) {
    const { indexes, reference } = await viewerIndexes(ctx);
    const reading = readQuestion(prompt, indexes, { locale, reference });
    lines.push(`**${prompt}**`, "");
    if (reading.ok) {
      const state: ToolState = {};
      const outcome = await runTool("run_query", runQueryArgs(reading.understanding), ctx, state);
      lines.push(outcome.ok ? summarize(reading.understanding, state.lastRows ?? [], state.lastColumns ?? []) : SAY[reading.understanding.language].cannot, "");
    } else {
      // The chat's honest wording: a term the data does not hold is named, a request to change data declined.
      const why = reading.refusal ? refusalText(reading.language, reading.refusal, indexes) : SAY[reading.language].noMatch(prompt);
      lines.push(`${SAY[reading.language].cannot} ${why}`, "");
    }
  }
  const bullets: string[] = [];
  for (const s of snapshots) {
    const state: ToolState = {};
    const outcome = await runTool("run_query", { query: s.meta!.query as SemanticQuery }, ctx, state);
    if (!outcome.ok) continue;
    const line = highlight(s.title ?? s.name ?? "Report", state, locale);
    if (line) bullets.push(line);
  }
  lines.push(...bullets);
  return lines.join("\n").trim() || SAY.en.noRows;
}

const DEFAULT_WIDGET_PROMPT = "Summarize what this dashboard shows: the main figures and what stands out.";

/**
 * A model's Markdown: the prompt, with the dashboard's reports named as the queries to run.
 * The question carries the reports' titles and semantic queries (what the published dashboard
 * shows anyone who opens it) — never the viewer's filter values, a key, a token or a session.
 */
async function modelMarkdown(settings: AiSettings, ctx: Omit<TurnContext, "signal">, prompt: string, snapshots: Snapshot[]): Promise<string> {
  const question = [
    prompt || DEFAULT_WIDGET_PROMPT,
    "",
    "Write this for a summary widget on a dashboard: short Markdown (a sentence or two, then at most five bullet points), with numbers from run_query only.",
    "The dashboard's reports — run their queries with run_query (the viewer's dashboard filters are added for you):",
    ...snapshots.map((s) => `- ${JSON.stringify(s.title ?? s.name ?? "Report")}: ${JSON.stringify(s.meta!.query)}`),
  ].join("\n");
  const parts: AnswerPart[] = [];
  try {
    await runTurn({ provider: providerFor(settings), question, history: [], ctx, timeBudgetMs: settings.timeBudgetMs, emit: (p) => parts.push(p) });
  } catch (e) {
    // Nothing is cached: the widget shows the failure and "Regenerate" tries again.
    if (e instanceof AiError) throw new DomainError("upstream_failed", e.message);
    throw e;
  }
  // The answer is the text of the model's last round (earlier rounds may think aloud before a tool call).
  const texts = parts.filter((p): p is Extract<AnswerPart, { type: "text" }> => p.type === "text");
  const lastId = texts[texts.length - 1]?.id;
  const markdown = texts
    .filter((p) => p.id === lastId)
    .map((p) => p.text)
    .join("")
    .trim();
  if (!markdown) throw new DomainError("upstream_failed", "The model gave no answer");
  return markdown.slice(0, 20_000);
}

export async function aiWidgetAnswer(
  deps: AppDeps,
  principal: Principal,
  publicId: string,
  widgetId: string,
  input: { filterUrlParameters?: string[]; regenerate?: boolean; locale: string },
): Promise<AiWidgetAnswer> {
  if (principal.kind === "embed" && (principal.settings.allowAi === false || principal.settings.showAiWidgets === false))
    throw forbidden("AI is turned off for this session");
  const dashboard = await resolveViewableDashboard(deps.db, principal, publicId);
  const widgets = ((dashboard.config as { widgets?: { id: string; type: string; config?: Record<string, unknown> }[] }).widgets ?? []) as {
    id: string;
    type: string;
    config?: Record<string, unknown>;
  }[];
  const widget = widgets.find((w) => w.id === widgetId);
  if (!widget) throw notFound("Widget");
  if (widget.type !== "AI") throw badRequest(`Widget ${widgetId} is not an AI widget`, [{ path: ["widgetId"], message: "not an AI widget" }]);

  let prompt = String(widget.config?.prompt ?? widget.config?.question ?? "").slice(0, 1000);
  const [attached] = await deps.db
    .select()
    .from(aiWidgetThreads)
    .where(and(eq(aiWidgetThreads.dashboardId, dashboard.id), eq(aiWidgetThreads.widgetId, widgetId)));
  if (attached) {
    const [question] = await deps.db
      .select({ content: chatMessages.content })
      .from(chatMessages)
      .where(and(eq(chatMessages.threadId, attached.threadId), eq(chatMessages.role, "user")))
      .orderBy(desc(chatMessages.createdAt))
      .limit(1);
    if (question?.content) prompt = question.content.slice(0, 1000);
  }

  const views = viewsOfSnapshots(dashboard.reportSnapshots);
  const filters: QueryFilter[] = [];
  for (const p of input.filterUrlParameters ?? []) {
    const parsed = parseFilterParameter(p);
    if (parsed.ok && parsed.filter && views.includes(parsed.member.split(".")[0]!)) filters.push(toQueryFilter(parsed.filter));
  }
  const snapshots = (dashboard.reportSnapshots as Snapshot[]).filter((s) => s.meta?.query && typeof s.meta.query === "object").slice(0, MAX_REPORTS);
  const securityContext = await securityContextOf(principal, deps.db);
  const viewer = sha([
    securityContext.role ?? null,
    securityContext.userId ?? null,
    securityContext.embedTenant,
    [...securityContext.groups].sort(),
    securityContext.userAttributes,
  ]);
  const settings = await readAiSettings(deps, principal);
  const writer = settings.provider === "builtin" ? "builtin" : `${settings.provider}:${settings.model ?? ""}`;
  const checksum = sha([prompt, dashboard.versionId, snapshots.map((s) => s.meta?.query), filters, input.locale.slice(0, 2), writer]);
  const key = sha([dashboard.id, widgetId, viewer]);

  const [cached] = await deps.db.select().from(aiWidgetAnswers).where(eq(aiWidgetAnswers.key, key));
  if (cached && !input.regenerate) {
    return { markdown: cached.markdown, checksum: cached.checksum, stale: cached.checksum !== checksum, generatedAt: cached.createdAt.toISOString() };
  }

  const engine = await deps.queryEngines.get(dashboard.deploymentId);
  const ctx: Omit<TurnContext, "signal"> = {
    deploymentId: dashboard.deploymentId,
    engine,
    securityContext,
    locale: input.locale,
    allowAuthoring: false,
    views,
    extraFilters: filters,
    queryTimeoutMs: deps.queryEngines.queryTimeoutMs,
    includeSql: false,
  };
  const markdown =
    settings.provider === "builtin"
      ? await builtinMarkdown({ ...ctx, signal: AbortSignal.timeout(deps.queryEngines.queryTimeoutMs) }, prompt, snapshots, input.locale)
      : await modelMarkdown(
          settings,
          // The model's tools reach only the members of the dashboard's reports and filters.
          {
            ...ctx,
            members: [
              ...new Set([...snapshots.flatMap((s) => membersOf(s.meta!.query as SemanticQuery)), ...filters.flatMap((f) => membersOf({ filters: [f] }))]),
            ],
          },
          prompt,
          snapshots,
        );
  const [row] = await deps.db
    .insert(aiWidgetAnswers)
    .values({ key, checksum, markdown })
    .onConflictDoUpdate({ target: aiWidgetAnswers.key, set: { checksum, markdown, createdAt: new Date() } })
    .returning();
  return { markdown, checksum, stale: false, generatedAt: row!.createdAt.toISOString() };
}
