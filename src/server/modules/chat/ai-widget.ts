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
import { contentLocaleOf, memberTitler, resultTranslator, textTranslator, valueLabeler } from "../content-translation/apply";
import { filtersLine, highlight, widgetLocalizer, type WidgetLocalizer } from "./ai-widget-summary";
import { widgetLanguage } from "./ai-widget-words";

export interface AiWidgetAnswer {
  markdown: string;
  checksum: string;
  stale: boolean;
  generatedAt: string;
}

const MAX_REPORTS = 8;
const sha = (v: unknown) => createHash("sha256").update(JSON.stringify(v)).digest("hex");

type Snapshot = { title?: string | null; name?: string | null; meta?: { query?: unknown } | null };

/** The builtin engine's Markdown: the prompt answered when it can be read, then a line per report. */
export async function builtinMarkdown(
  ctx: TurnContext,
  prompt: string,
  snapshots: Snapshot[],
  localizer: WidgetLocalizer,
  intro?: string | null,
): Promise<string> {
  const { locale } = localizer;
  const lines: string[] = intro ? [intro, ""] : [];
  if (prompt) {
    const { indexes, reference } = await viewerIndexes(ctx);
    const reading = readQuestion(prompt, indexes, { locale, reference });
    lines.push(`**${prompt}**`, "");
    if (reading.ok) {
      const state: ToolState = {};
      const outcome = await runTool("run_query", runQueryArgs(reading.understanding), ctx, state, { built: true });
      lines.push(
        outcome.ok
          ? summarize(reading.understanding, state.lastRows ?? [], state.lastColumns ?? [], ctx.valueLabel)
          : SAY[reading.understanding.language].cannot,
        "",
      );
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
    const line = highlight(localizer.text(s.title ?? s.name ?? "Report"), state, localizer);
    if (line) bullets.push(line);
  }
  lines.push(...bullets);
  return lines.join("\n").trim() || SAY[widgetLanguage(locale)].noRows;
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
  // The question as the viewer reads it above the answer (the dictionary's text in their
  // language): the answer is written for it, so in that language.
  prompt = (await textTranslator(deps.db, dashboard.deploymentId, contentLocaleOf(principal, input.locale)))(prompt);

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
  if (cached && !input.regenerate && cached.checksum === checksum) {
    return { markdown: cached.markdown, checksum: cached.checksum, stale: false, generatedAt: cached.createdAt.toISOString() };
  }
  // Not written yet for these filters, this version, language and writer (or asked anew): it is
  // written now; when that fails, the last answer is shown, marked stale.
  try {
    return await writeAnswer();
  } catch (error) {
    if (cached && !input.regenerate) return { markdown: cached.markdown, checksum: cached.checksum, stale: true, generatedAt: cached.createdAt.toISOString() };
    throw error;
  }

  async function writeAnswer(): Promise<AiWidgetAnswer> {
    const engine = await deps.queryEngines.get(dashboard.deploymentId);
    const locale = contentLocaleOf(principal, input.locale) ?? "en-US";
    const localizer = await widgetLocalizer(deps, dashboard.deploymentId, engine.model, locale);
    const titles = new Map(
      engine.meta(securityContext).sources.flatMap((source) => [...source.measures, ...source.dimensions].map((m) => [m.name, m.title] as const)),
    );
    const intro = filtersLine(filters, (member) => localizer.member(member) ?? titles.get(member) ?? member, localizer);
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
      // Members and values named in the viewer's language, as in the chat (chat/service.ts).
      translate: await resultTranslator(deps.db, dashboard.deploymentId, locale),
      memberTitle: await memberTitler(deps.db, dashboard.deploymentId, locale),
      valueLabel: await valueLabeler(deps.db, dashboard.deploymentId, locale, engine.model),
    };
    const markdown =
      settings.provider === "builtin"
        ? await builtinMarkdown({ ...ctx, signal: AbortSignal.timeout(deps.queryEngines.queryTimeoutMs) }, prompt, snapshots, localizer, intro)
        : (intro ? `${intro}\n\n` : "") +
          (await modelMarkdown(
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
          ));
    const [row] = await deps.db
      .insert(aiWidgetAnswers)
      .values({ key, checksum, markdown })
      .onConflictDoUpdate({ target: aiWidgetAnswers.key, set: { checksum, markdown, createdAt: new Date() } })
      .returning();
    return { markdown, checksum, stale: false, generatedAt: row!.createdAt.toISOString() };
  }
}
