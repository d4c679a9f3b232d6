/**
 * Chat threads and their answers (decisions.md "AI"). A thread belongs to one owner — a
 * platform user, or an embed user (tenant + externalId) — on one deployment, and never
 * crosses tenants. Posting a question starts a turn that keeps running when its client goes
 * away; posting the same `messageId` again rejoins it, or returns the finished answer.
 */
import { contentLocaleOf, memberTitler, resultTranslator, valueLabeler } from "../content-translation/apply";
import { randomBytes } from "node:crypto";
import { and, asc, desc, eq } from "drizzle-orm";
import type { ChatMessage, ChatThread, ChatThreadPolicy } from "../../../schema/chat";
import type { SemanticQuery } from "../../../schema/semantic-query";
import type { AppDeps, Principal } from "../../context";
import { chatMessages, chatThreads } from "../../db/schema";
import { DomainError, forbidden, notFound } from "../../domain/errors";
import { readAiSettings, type AiSettings } from "../../ai/settings";
import { providerFor } from "../../ai/turn";
import type { AnswerPart, HistoryMessage } from "../../ai/types";
import { publishInvalidation } from "../../cluster/invalidation-bus";
import { assertEmbedDeploymentAccess, securityContextOf } from "../embed-access/service";
import type { ResolvedAiContext } from "./ai-context";
import { contextNote } from "./ai-context-words";
import { writeAnswer } from "./answer-run";
import { domainErrorOf, errorLine, INTERNAL_ERROR_LINE } from "./run-error";
import type { ChatRunRegistry } from "./run-registry";
import { followRun } from "./run-stream";
import type { KnownChatThreads } from "./known-threads";

export type ThreadRow = typeof chatThreads.$inferSelect;
export type MessageRow = typeof chatMessages.$inferSelect;
export type ChatAction = ChatThreadPolicy["actions"][number];

const newId = () => randomBytes(12).toString("base64url");

/** Who owns threads: one key per platform user, per embed user (tenant + externalId), or per embed session without a user id. */
export function ownerOf(principal: Principal): { ownerKey: string; userId: number | null; embedTenant: string | null; externalId: string | null } {
  if (principal.kind === "user") return { ownerKey: `user:${principal.userId}`, userId: principal.userId, embedTenant: null, externalId: null };
  const who = principal.externalId ? `ext:${principal.externalId}` : `session:${principal.sessionId}`;
  return { ownerKey: `embed:${principal.embedTenant ?? ""}:${who}`, userId: null, embedTenant: principal.embedTenant, externalId: principal.externalId };
}

/** `allowAi: false` in an embed session turns AI off on the server. */
export function assertAiAllowed(principal: Principal, deploymentId: number) {
  assertEmbedDeploymentAccess(principal, deploymentId);
  if (principal.kind === "embed" && principal.settings.allowAi === false) throw forbidden("AI is turned off for this session");
}

/**
 * Which views an action may touch under the policies: `"*"` for all, a list, or none.
 * No rule about the action allows it; a matching deny wins over any allow.
 */
export function policyViews(policies: ChatThreadPolicy[], action: ChatAction, views: string[]): string[] {
  const rules = policies.filter((p) => p.resourceType === "chatThread" && p.actions.includes(action));
  if (rules.length === 0) return views;
  const denied = (v: string) => rules.some((r) => r.effect === "deny" && (r.resources.includes("*") || r.resources.includes(v)));
  const allowed = (v: string) => rules.some((r) => r.effect === "allow" && (r.resources.includes("*") || r.resources.includes(v)));
  const anyAllow = rules.some((r) => r.effect === "allow");
  return views.filter((v) => !denied(v) && (!anyAllow || allowed(v)));
}

export function assertPolicy(settings: AiSettings, action: ChatAction) {
  const rules = settings.chatThreadPolicies.filter((p) => p.actions.includes(action));
  if (rules.some((r) => r.effect === "deny" && r.resources.includes("*"))) throw forbidden(`Chat threads: "${action}" is not allowed`);
}

export function threadView(row: ThreadRow): ChatThread {
  return {
    id: row.id,
    deploymentId: row.deploymentId,
    title: row.title,
    shared: row.shareScope !== null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function messageView(row: MessageRow): ChatMessage {
  const state = row.state as { parts?: AnswerPart[]; error?: { code: string; message: string } };
  return {
    id: row.id,
    role: row.role,
    status: row.status,
    content: row.content,
    parts: (state.parts ?? []) as ChatMessage["parts"],
    ...(state.error ? { error: state.error } : {}),
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * This node's memory of the chat, which `createApp` puts in the deps: the answers it is writing
 * and the threads it has seen.
 */
function chatNodeOf(deps: AppDeps): { runs: ChatRunRegistry; threads: KnownChatThreads } {
  if (!deps.chatRuns || !deps.knownChatThreads) throw new DomainError("internal_error", "The chat run registry is missing (createApp makes one)");
  return { runs: deps.chatRuns, threads: deps.knownChatThreads };
}

/** The answers this node is writing. */
function chatRunsOf(deps: AppDeps): ChatRunRegistry {
  return chatNodeOf(deps).runs;
}

/** Whether an answer is being written on this node (not yet said to its end). */
export function isAnswerRunning(deps: AppDeps, threadId: string, messageId: string): boolean {
  return chatRunsOf(deps).isAnswering(threadId, messageId);
}

export async function ownThread(deps: AppDeps, principal: Principal, deploymentId: number, threadId: string): Promise<ThreadRow> {
  const { ownerKey } = ownerOf(principal);
  const { runs, threads } = chatNodeOf(deps);
  // An answer this node is still storing is part of the thread: a read waits for it.
  await runs.settled((run) => run.threadId === threadId);
  const [row] = await deps.db
    .select()
    .from(chatThreads)
    .where(and(eq(chatThreads.id, threadId), eq(chatThreads.deploymentId, deploymentId), eq(chatThreads.ownerKey, ownerKey)));
  if (!row) throw notFound("Chat thread");
  threads.set(row.id, { deploymentId: row.deploymentId, ownerKey: row.ownerKey });
  return row;
}

/** The caller's thread for a question: from what this node knows, else read. 404 when it is not theirs. */
async function threadForQuestion(deps: AppDeps, principal: Principal, deploymentId: number, threadId: string): Promise<{ id: string }> {
  // A thread this node has seen needs no read: its deployment and owner never change.
  const known = chatNodeOf(deps).threads.get(threadId);
  if (known) {
    if (known.deploymentId !== deploymentId || known.ownerKey !== ownerOf(principal).ownerKey) throw notFound("Chat thread");
    return { id: threadId };
  }
  return ownThread(deps, principal, deploymentId, threadId);
}

export async function createThread(deps: AppDeps, principal: Principal, deploymentId: number, input: { title?: string }): Promise<ChatThread> {
  assertAiAllowed(principal, deploymentId);
  await deps.queryEngines.get(deploymentId); // the deployment exists
  assertPolicy(await readAiSettings(deps, principal), "create");
  const owner = ownerOf(principal);
  const [row] = await deps.db
    .insert(chatThreads)
    .values({ id: newId(), deploymentId, ...owner, title: input.title ?? "" })
    .returning();
  chatNodeOf(deps).threads.set(row!.id, { deploymentId, ownerKey: owner.ownerKey });
  return threadView(row!);
}

export async function listThreads(deps: AppDeps, principal: Principal, deploymentId: number): Promise<ChatThread[]> {
  assertAiAllowed(principal, deploymentId);
  assertPolicy(await readAiSettings(deps, principal), "read");
  const { ownerKey } = ownerOf(principal);
  await chatRunsOf(deps).settled((run) => run.ownerKey === ownerKey);
  const rows = await deps.db
    .select()
    .from(chatThreads)
    .where(and(eq(chatThreads.deploymentId, deploymentId), eq(chatThreads.ownerKey, ownerKey)))
    .orderBy(desc(chatThreads.updatedAt))
    .limit(200);
  return rows.map(threadView);
}

export async function getThread(deps: AppDeps, principal: Principal, deploymentId: number, threadId: string) {
  assertAiAllowed(principal, deploymentId);
  assertPolicy(await readAiSettings(deps, principal), "read");
  const thread = await ownThread(deps, principal, deploymentId, threadId);
  const rows = await deps.db.select().from(chatMessages).where(eq(chatMessages.threadId, thread.id)).orderBy(asc(chatMessages.createdAt)).limit(1000);
  return { ...threadView(thread), messages: rows.map(messageView) };
}

export async function deleteThread(deps: AppDeps, principal: Principal, deploymentId: number, threadId: string) {
  assertAiAllowed(principal, deploymentId);
  assertPolicy(await readAiSettings(deps, principal), "delete");
  const thread = await ownThread(deps, principal, deploymentId, threadId);
  chatRunsOf(deps).cancelThread(thread.id);
  await deps.db.delete(chatThreads).where(eq(chatThreads.id, thread.id));
  await publishInvalidation(deps.db, "chat-thread", thread.id);
}

// ---------------------------------------------------------------------------------------
// Asking

export interface PostMessageOptions {
  content: string;
  messageId?: string;
  locale: string;
  /** Filters and views of a dashboard chat. */
  scope?: { views?: string[]; filters?: SemanticQuery["filters"] };
  /** The host page's AI context (its filters and views are in `scope`): the answer opens by saying what it was answered for. */
  context?: ResolvedAiContext;
  /** Saves a query as a report in the caller's workspace (`save_report`); only where the caller may author. */
  saveReport?: (input: { title: string; query: SemanticQuery }) => Promise<{ id: string; title: string }>;
  /** Resolves when the answer's response has gone out; its storing waits for it (at most DELIVERY_WAIT_MS). */
  delivered?: Promise<void>;
  /** Called once the answer has ended and been stored. */
  onEvent?: (e: { status: "completed" | "error"; threadId: string; messageId: string }) => void;
}

/** What a question may use: its views under the policies and the scope, and what a model reads of the thread. */
interface Preparation {
  engine: Awaited<ReturnType<AppDeps["queryEngines"]["get"]>>;
  securityContext: Awaited<ReturnType<typeof securityContextOf>>;
  views: string[];
  history: HistoryMessage[];
}

/** Reads what the answer needs, or the stored answer of a messageId the client sent. Refuses a question no view may answer. */
async function prepareAnswer(
  deps: AppDeps,
  principal: Principal,
  deploymentId: number,
  question: { threadId: string; messageId: string; sentByClient: boolean; readsHistory: boolean; scopeViews: string[] | undefined },
  settings: AiSettings,
): Promise<{ stored: MessageRow } | { prepared: Preparation }> {
  // A messageId made here is new: only one the client sent may name an answer already stored.
  const [[existing], securityContext, engine] = await Promise.all([
    !question.sentByClient
      ? ([] as MessageRow[])
      : deps.db
          .select()
          .from(chatMessages)
          .where(and(eq(chatMessages.threadId, question.threadId), eq(chatMessages.id, question.messageId), eq(chatMessages.role, "assistant"))),
    securityContextOf(principal, deps.db),
    deps.queryEngines.get(deploymentId),
  ]);
  if (existing) return { stored: existing };
  const allViews = engine.meta(securityContext).sources.map((s) => s.name);
  const permitted = policyViews(settings.chatThreadPolicies, "create", allViews);
  const scoped = question.scopeViews;
  const views = scoped ? permitted.filter((v) => scoped.includes(v)) : permitted;
  if (views.length === 0) throw forbidden("No view of this deployment may be asked about in a chat");
  // A model reads the thread's earlier text; the builtin engine reads each question alone.
  let history: HistoryMessage[] = [];
  if (question.readsHistory) {
    const previous = await deps.db
      .select()
      .from(chatMessages)
      .where(eq(chatMessages.threadId, question.threadId))
      .orderBy(asc(chatMessages.createdAt))
      .limit(40);
    history = previous.filter((m) => m.status !== "running").map((m) => ({ role: m.role, content: m.content }));
  }
  return { prepared: { engine, securityContext, views, history } };
}

/**
 * Posts a question and returns the NDJSON stream of its answer: `{"__cutoff__": true, "chatId",
 * "messageId"}`, the deltas, then `{"__state__": message}` or `{"error": {code, message}}`.
 * The answer is a run of this node's registry (docs/ai.md "How a chat run proceeds"); posting
 * the same messageId again joins it while it is held, or returns the stored answer.
 */
export async function postMessage(
  deps: AppDeps,
  principal: Principal,
  deploymentId: number,
  threadId: string,
  opts: PostMessageOptions,
): Promise<ReadableStream<Uint8Array>> {
  assertAiAllowed(principal, deploymentId);
  const settings = await readAiSettings(deps, principal);
  assertPolicy(settings, "create");
  const thread = await threadForQuestion(deps, principal, deploymentId, threadId);
  const provider = providerFor(settings);
  const runs = chatRunsOf(deps);
  const messageId = opts.messageId ?? newId();
  // Claimed at once (no await before this): a second post of the same messageId joins it.
  const { run, isNew } = runs.claim(thread.id, messageId, ownerOf(principal).ownerKey);
  if (!isNew) return followRun(runs, run);

  const cutoff = { __cutoff__: true, chatId: thread.id, messageId };
  let preparation: Awaited<ReturnType<typeof prepareAnswer>>;
  try {
    preparation = await prepareAnswer(
      deps,
      principal,
      deploymentId,
      {
        threadId: thread.id,
        messageId,
        sentByClient: opts.messageId !== undefined,
        readsHistory: provider.name !== "builtin",
        scopeViews: opts.scope?.views,
      },
      settings,
    );
  } catch (e) {
    const error = domainErrorOf(e);
    runs.advance(run, "refused", { line: error ? errorLine(error) : INTERNAL_ERROR_LINE });
    throw e;
  }
  if ("stored" in preparation) {
    const view = messageView(preparation.stored);
    runs.say(run, cutoff);
    runs.advance(run, "found-stored", { line: preparation.stored.status === "error" && view.error ? { error: view.error } : { __state__: view } });
    return followRun(runs, run);
  }

  runs.advance(run, "prepared", { line: cutoff });
  const { engine, securityContext, views, history } = preparation.prepared;
  const contentIn = async (locale: string | null) => {
    const [translate, memberTitle, valueLabel] = await Promise.all([
      resultTranslator(deps.db, deploymentId, locale),
      memberTitler(deps.db, deploymentId, locale),
      valueLabeler(deps.db, deploymentId, locale, engine.model),
    ]);
    return { translate, memberTitle, valueLabel };
  };
  const { translate, memberTitle, valueLabel } = await contentIn(contentLocaleOf(principal, opts.locale));
  const sourceTitles = new Map(engine.meta(securityContext).sources.map((s) => [s.name, s.title]));
  const lead = opts.context
    ? contextNote(opts.locale, opts.context.applied, {
        memberTitle: (m) => memberTitle?.(m, opts.context!.titles[m] ?? m) ?? opts.context!.titles[m] ?? m,
        valueLabel,
        viewTitle: (v) => sourceTitles.get(v) ?? v,
        restrictsViews: opts.context.scope.views !== undefined,
      })
    : undefined;
  writeAnswer(deps, runs, run, {
    lead,
    provider,
    history,
    timeBudgetMs: settings.timeBudgetMs,
    turn: { threadId: thread.id, messageId, question: opts.content, deploymentId, createdAt: new Date() },
    delivered: opts.delivered,
    onEvent: opts.onEvent,
    ctx: {
      deploymentId,
      engine,
      securityContext,
      locale: opts.locale,
      allowAuthoring: opts.saveReport !== undefined,
      ...(opts.saveReport ? { saveReport: opts.saveReport } : {}),
      views,
      extraFilters: opts.scope?.filters,
      queryTimeoutMs: deps.queryEngines.queryTimeoutMs,
      includeSql: principal.kind === "user",
      translate,
      memberTitle,
      valueLabel,
      contentIn,
    },
  });
  return followRun(runs, run);
}
