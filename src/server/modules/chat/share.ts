/**
 * Sharing a chat thread, read-only (docs/decisions.md "Chat threads are shared read-only, with
 * figures computed for the reader"). The owner shares with their own audience only — the
 * embed users of their embed tenant, or the platform's users — never across tenants. A reader
 * sees the questions and, for each answer, its query run again under the reader's own
 * security context: never the owner's rows, nor the owner's words about them.
 */
import { contentLocaleOf, memberTitler, resultTranslator, valueLabeler } from "../content-translation/apply";
import { and, asc, desc, eq, ne } from "drizzle-orm";
import type { ChatMessage, ChatThread } from "../../../schema/chat";
import { SemanticQuerySchema, type SemanticQuery } from "../../../schema/semantic-query";
import type { AppDeps, Principal } from "../../context";
import { chatMessages, chatThreads } from "../../db/schema";
import { DomainError, forbidden, notFound } from "../../domain/errors";
import { readAiSettings } from "../../ai/settings";
import { chartSpec, membersOf, runTool, type ToolState } from "../../ai/tools";
import type { AnswerPart, TurnContext } from "../../ai/types";
import { securityContextOf } from "../embed-access/service";
import { assertAiAllowed, assertPolicy, getThread, messageView, ownerOf, ownThread, policyViews, threadView, type MessageRow } from "./service";

/** The audience a caller belongs to: the embed users of one tenant, or the platform's users. */
export function shareScopeOf(principal: Principal): string {
  return principal.kind === "user" ? "platform" : `embed:${principal.embedTenant ?? ""}`;
}

/** At most this many answers of a shared thread are computed again for a reader (the latest). */
const MAX_RECOMPUTED = 20;

const viewsOf = (query: SemanticQuery) => [...new Set(membersOf(query).map((m) => m.split(".")[0]!))];

function lastQueryOf(parts: AnswerPart[]): Extract<AnswerPart, { type: "query" }> | null {
  const queries = parts.filter((p): p is Extract<AnswerPart, { type: "query" }> => p.type === "query");
  const last = queries[queries.length - 1];
  return last && SemanticQuerySchema.safeParse(last.query).success ? last : null;
}

/** `PUT …/chat/threads/{threadId}/share {shared}`: the owner shares (or stops sharing) a thread with their audience. */
export async function shareThread(deps: AppDeps, principal: Principal, deploymentId: number, threadId: string, shared: boolean): Promise<ChatThread> {
  assertAiAllowed(principal, deploymentId);
  const settings = await readAiSettings(deps, principal);
  assertPolicy(settings, "share");
  if (principal.kind === "embed" && !principal.externalId) throw forbidden("A session without an externalId cannot share its threads");
  const thread = await ownThread(deps, principal, deploymentId, threadId);
  if (shared) {
    // Every view the thread's answers query must be one the policies let be shared.
    const rows = await deps.db.select({ state: chatMessages.state }).from(chatMessages).where(eq(chatMessages.threadId, thread.id));
    const views = [
      ...new Set(rows.flatMap((r) => (r.state as { parts?: AnswerPart[] }).parts ?? []).flatMap((p) => (p.type === "query" ? viewsOf(p.query) : []))),
    ];
    const refused = views.filter((v) => !policyViews(settings.chatThreadPolicies, "share", views).includes(v));
    if (refused.length) throw forbidden(`Chat threads about ${refused.join(", ")} may not be shared`);
  }
  const [row] = await deps.db
    .update(chatThreads)
    .set({ shareScope: shared ? shareScopeOf(principal) : null })
    .where(eq(chatThreads.id, thread.id))
    .returning();
  return threadView(row!);
}

/** Whether the caller may share their threads at all (the `share` policy, and a user id to share as). */
function canShare(principal: Principal, settings: Awaited<ReturnType<typeof readAiSettings>>): boolean {
  if (principal.kind === "embed" && !principal.externalId) return false;
  try {
    assertPolicy(settings, "share");
    return true;
  } catch {
    return false;
  }
}

/** `GET …/chat/shared-threads`: other users' threads shared with the caller, newest first, and whether the caller may share. */
export async function listSharedThreads(deps: AppDeps, principal: Principal, deploymentId: number): Promise<{ data: ChatThread[]; canShare: boolean }> {
  assertAiAllowed(principal, deploymentId);
  const settings = await readAiSettings(deps, principal);
  assertPolicy(settings, "read");
  const rows = await deps.db
    .select()
    .from(chatThreads)
    .where(
      and(
        eq(chatThreads.deploymentId, deploymentId),
        eq(chatThreads.shareScope, shareScopeOf(principal)),
        ne(chatThreads.ownerKey, ownerOf(principal).ownerKey),
      ),
    )
    .orderBy(desc(chatThreads.updatedAt))
    .limit(200);
  return { data: rows.map((r) => ({ ...threadView(r), readOnly: true })), canShare: canShare(principal, settings) };
}

/**
 * `GET …/chat/threads/{threadId}`: the caller's own thread, or one shared with them — its
 * questions, and each answer's query run again under the caller's security context (the
 * owner's text, rows and charts never leave the owner).
 */
export async function readThread(deps: AppDeps, principal: Principal, deploymentId: number, threadId: string, locale: string) {
  try {
    return await getThread(deps, principal, deploymentId, threadId);
  } catch (e) {
    if (!(e instanceof DomainError && e.code === "not_found")) throw e;
  }
  assertAiAllowed(principal, deploymentId);
  const settings = await readAiSettings(deps, principal);
  assertPolicy(settings, "read");
  const [thread] = await deps.db
    .select()
    .from(chatThreads)
    .where(and(eq(chatThreads.id, threadId), eq(chatThreads.deploymentId, deploymentId), eq(chatThreads.shareScope, shareScopeOf(principal))));
  if (!thread) throw notFound("Chat thread");
  const rows = await deps.db.select().from(chatMessages).where(eq(chatMessages.threadId, thread.id)).orderBy(asc(chatMessages.createdAt)).limit(1000);

  const engine = await deps.queryEngines.get(deploymentId);
  const securityContext = await securityContextOf(principal, deps.db);
  const allViews = engine.meta(securityContext).sources.map((s) => s.name);
  const ctx: TurnContext = {
    deploymentId,
    engine,
    securityContext,
    locale,
    allowAuthoring: false,
    views: policyViews(settings.chatThreadPolicies, "read", allViews),
    signal: AbortSignal.timeout(deps.queryEngines.queryTimeoutMs),
    queryTimeoutMs: deps.queryEngines.queryTimeoutMs,
    includeSql: false,
    translate: await resultTranslator(deps.db, deploymentId, contentLocaleOf(principal, locale)),
    memberTitle: await memberTitler(deps.db, deploymentId, contentLocaleOf(principal, locale)),
    valueLabel: await valueLabeler(deps.db, deploymentId, contentLocaleOf(principal, locale), engine.model),
  };
  const answers = rows.filter((r) => r.role === "assistant");
  const recomputed = new Set(answers.slice(-MAX_RECOMPUTED).map((r) => r.id));
  const messages: ChatMessage[] = [];
  for (const row of rows) {
    if (row.role === "user") messages.push(messageView(row));
    else if (row.status !== "running") messages.push(await answerFor(row, ctx, recomputed.has(row.id)));
  }
  return { ...threadView(thread), readOnly: true, messages };
}

/** An answer as a reader sees it: its query, and its table and chart from the reader's own rows. */
async function answerFor(row: MessageRow, ctx: TurnContext, recompute: boolean): Promise<ChatMessage> {
  const stored = messageView(row);
  // The parts as the answer's run stored them (answer-storage.ts writes AnswerPart[]); the schema's type is the looser one clients read.
  const parts = stored.parts as AnswerPart[];
  const asked = lastQueryOf(parts);
  const query = asked?.query;
  const comparisons = asked?.periodComparisons?.length ? { periodComparisons: asked.periodComparisons } : {};
  const base = { id: stored.id, role: "assistant" as const, content: "", createdAt: stored.createdAt };
  const suggestions = parts.filter((p) => p.type === "suggestions");
  if (!query) return { ...base, status: "completed", parts: suggestions as ChatMessage["parts"] };
  if (!recompute) return { ...base, status: "completed", parts: [{ id: `${row.id}-query`, type: "query", query, ...comparisons }] as ChatMessage["parts"] };
  const state: ToolState = {};
  const outcome = await runTool("run_query", { query, ...comparisons }, ctx, state);
  if (!outcome.ok) {
    return {
      ...base,
      status: "error",
      parts: [{ id: `${row.id}-query`, type: "query", query, ...comparisons }] as ChatMessage["parts"],
      error: { code: "forbidden", message: "This answer's data is not available to you" },
    };
  }
  const out: AnswerPart[] = outcome.parts.map((p, i) => ({ ...p, id: `${row.id}-r${i}` }) as AnswerPart);
  const chart = [...parts].reverse().find((p): p is Extract<AnswerPart, { type: "chart" }> => p.type === "chart");
  if (chart && state.lastColumns && state.lastRows) {
    const keys = new Set(state.lastColumns.map((c) => c.key));
    if ([chart.chart.x, ...chart.chart.y].every((k) => keys.has(k)))
      out.push({ id: `${row.id}-chart`, type: "chart", spec: chartSpec(chart.chart, state.lastColumns, state.lastRows), chart: chart.chart });
  }
  return { ...base, status: "completed", parts: [...out, ...suggestions] as ChatMessage["parts"] };
}
