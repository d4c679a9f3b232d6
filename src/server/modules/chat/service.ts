/**
 * Chat threads and their answers (decisions.md "AI"). A thread belongs to one owner — a
 * platform user, or an embed user (tenant + externalId) — on one deployment, and never
 * crosses tenants. Posting a question starts a turn that keeps running when its client goes
 * away; posting the same `messageId` again rejoins it, or returns the finished answer.
 */
import { randomBytes } from "node:crypto";
import { and, asc, desc, eq, sql } from "drizzle-orm";
import type { ChatMessage, ChatThread, ChatThreadPolicy } from "../../../schema/chat";
import type { SemanticQuery } from "../../../schema/semantic-query";
import type { AppDeps, Principal } from "../../context";
import { chatMessages, chatThreads } from "../../db/schema";
import { DomainError, forbidden, notFound } from "../../domain/errors";
import { readAiSettings, type AiSettings } from "../../ai/settings";
import { providerFor, runTurn } from "../../ai/turn";
import { AiError, type AnswerPart, type HistoryMessage } from "../../ai/types";
import { onInvalidation, publishInvalidation } from "../../cluster/invalidation-bus";
import { pgError } from "../../db/pg-error";
import { assertEmbedDeploymentAccess, securityContextOf } from "../embed-access/service";

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

export async function ownThread(deps: AppDeps, principal: Principal, deploymentId: number, threadId: string): Promise<ThreadRow> {
  const { ownerKey } = ownerOf(principal);
  // An answer this node is still storing is part of the thread: a read waits for it.
  await writesSettled((p) => p.threadId === threadId);
  const [row] = await deps.db
    .select()
    .from(chatThreads)
    .where(and(eq(chatThreads.id, threadId), eq(chatThreads.deploymentId, deploymentId), eq(chatThreads.ownerKey, ownerKey)));
  if (!row) throw notFound("Chat thread");
  knownThreadsOf(deps.db).set(row.id, { deploymentId: row.deploymentId, ownerKey: row.ownerKey });
  return row;
}

/**
 * Threads this node has seen, by id: a thread's deployment and owner never change, so asking
 * in a known thread needs no read. A deletion is announced on the invalidation bus
 * (`chat-thread`), and every node forgets the thread; were a notice missed, the answer's write
 * finds no thread and stores nothing.
 */
const MAX_KNOWN_THREADS = 10_000;
const knownThreads = new WeakMap<AppDeps["db"], Map<string, { deploymentId: number; ownerKey: string }>>();

function knownThreadsOf(db: AppDeps["db"]) {
  let known = knownThreads.get(db);
  if (!known) {
    const map = new Map<string, { deploymentId: number; ownerKey: string }>();
    knownThreads.set(db, (known = map));
    onInvalidation(db, "chat-thread", (key) => {
      if (key === null) map.clear();
      else map.delete(key);
    });
  }
  if (known.size > MAX_KNOWN_THREADS) known.delete(known.keys().next().value!);
  return known;
}

/** The caller's thread for a question: from what this node knows, else read. 404 when it is not theirs. */
async function threadForQuestion(deps: AppDeps, principal: Principal, deploymentId: number, threadId: string): Promise<{ id: string }> {
  const known = knownThreadsOf(deps.db).get(threadId);
  if (known) {
    if (known.deploymentId !== deploymentId || known.ownerKey !== ownerOf(principal).ownerKey) throw notFound("Chat thread");
    return { id: threadId };
  }
  return ownThread(deps, principal, deploymentId, threadId);
}

/** Answers this node has streamed to the end and is storing: reads of their thread wait for them. */
const pendingWrites = new Set<{ threadId: string; ownerKey: string; done: Promise<void> }>();

async function writesSettled(match: (p: { threadId: string; ownerKey: string }) => boolean): Promise<void> {
  const waiting = [...pendingWrites].filter(match).map((p) => p.done);
  if (waiting.length) await Promise.all(waiting);
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
  knownThreadsOf(deps.db).set(row!.id, { deploymentId, ownerKey: owner.ownerKey });
  return threadView(row!);
}

export async function listThreads(deps: AppDeps, principal: Principal, deploymentId: number): Promise<ChatThread[]> {
  assertAiAllowed(principal, deploymentId);
  assertPolicy(await readAiSettings(deps, principal), "read");
  const { ownerKey } = ownerOf(principal);
  await writesSettled((p) => p.ownerKey === ownerKey);
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
  for (const [key, run] of runs) if (key.startsWith(`${thread.id}/`)) run.cancel();
  await deps.db.delete(chatThreads).where(eq(chatThreads.id, thread.id));
  await publishInvalidation(deps.db, "chat-thread", thread.id);
}

// ---------------------------------------------------------------------------------------
// Running answers

/** One line of the NDJSON stream. */
type Line = Record<string, unknown>;

interface Run {
  lines: Line[];
  listeners: Set<(line: Line | null) => void>;
  done: boolean;
  cancel(): void;
}

/** Answers being written, by `threadId/messageId`; each is dropped when it ends. */
const runs = new Map<string, Run>();

/** Whether an answer is being written on this node. */
export function isAnswerRunning(threadId: string, messageId: string): boolean {
  const run = runs.get(`${threadId}/${messageId}`);
  return run !== undefined && !run.done;
}

/** A stream of NDJSON lines: what has been said so far, then what follows until the end. */
function follow(run: Run): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let listener: ((line: Line | null) => void) | undefined;
  // Lines said in one turn of the event loop go out as one chunk: an answer that is ready at
  // once is one write, one that waits on a model still streams as it comes.
  let pending = "";
  let scheduled: NodeJS.Immediate | null = null;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      const flush = () => {
        scheduled = null;
        if (!pending) return;
        const chunk = pending;
        pending = "";
        try {
          controller.enqueue(encoder.encode(chunk));
        } catch {
          // the client went away; the answer goes on being written
        }
      };
      pending = run.lines.map((line) => JSON.stringify(line) + "\n").join("");
      if (run.done) {
        flush();
        controller.close();
        return;
      }
      flush();
      listener = (line) => {
        if (line === null) {
          if (scheduled) clearImmediate(scheduled);
          flush();
          try {
            controller.close();
          } catch {
            // already closed: the client went away
          }
          return;
        }
        pending += JSON.stringify(line) + "\n";
        scheduled ??= setImmediate(flush);
      };
      run.listeners.add(listener);
    },
    cancel() {
      if (scheduled) clearImmediate(scheduled);
      if (listener) run.listeners.delete(listener);
    },
  });
}

/** Merges a streamed part into the message's parts: text deltas with one id are joined. */
function mergePart(parts: AnswerPart[], part: AnswerPart) {
  const last = parts[parts.length - 1];
  if (part.type === "text" && last && last.type === "text" && last.id === part.id) last.text += part.text;
  else parts.push(part.type === "text" ? { ...part } : part);
}

/** How long an answer may run before its `running` row is stored (docs/ai.md "Figures"). */
const RUNNING_ROW_AFTER_MS = 200;
/** How long the storing of an answer waits for its response to go out before it goes ahead. */
const DELIVERY_WAIT_MS = 1000;
/** How often the write of a finished answer is tried before it is given up (and logged). */
const STORE_ATTEMPTS = 5;

export interface PostMessageOptions {
  content: string;
  messageId?: string;
  locale: string;
  /** Filters and views of a dashboard chat. */
  scope?: { views?: string[]; filters?: SemanticQuery["filters"] };
  /** Saves a query as a report in the caller's workspace (`save_report`); only where the caller may author. */
  saveReport?: (input: { title: string; query: SemanticQuery }) => Promise<{ id: string; title: string }>;
  /** Resolves when the answer's response has gone out; its storing waits for it (at most DELIVERY_WAIT_MS). */
  delivered?: Promise<void>;
  /** Called once when the question is accepted and once when the answer ends. */
  onEvent?: (e: { status: "completed" | "error"; threadId: string; messageId: string }) => void;
}

/**
 * Posts a question and returns the NDJSON stream of its answer: `{"__cutoff__": true, "chatId",
 * "messageId"}`, the deltas, then `{"__state__": message}` or `{"error": {code, message}}`.
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
  const messageId = opts.messageId ?? newId();
  const key = `${thread.id}/${messageId}`;

  const running = runs.get(key);
  // A finished answer still being stored is returned as a stored one is: `__cutoff__` and its last line.
  if (running?.done) return follow({ ...running, lines: [running.lines[0]!, running.lines[running.lines.length - 1]!] });
  if (running) return follow(running);
  // The answer is claimed at once (no await before this): a second post of the same
  // messageId while this one starts joins it instead of starting another.
  const controller = new AbortController();
  const run: Run = { lines: [], listeners: new Set(), done: false, cancel: () => controller.abort() };
  runs.set(key, run);
  const say = (line: Line | null) => {
    if (line) run.lines.push(line);
    for (const l of run.listeners) l(line);
  };
  /** The last line: the stream ends. The run stays known (a rejoin replays it) until `forget`. */
  const finish = (last: Line) => {
    say(last);
    run.done = true;
    say(null);
  };
  const forget = () => {
    if (runs.get(key) === run) runs.delete(key);
  };
  const end = (last: Line) => {
    finish(last);
    forget();
  };

  let engine: Awaited<ReturnType<AppDeps["queryEngines"]["get"]>>;
  let securityContext: Awaited<ReturnType<typeof securityContextOf>>;
  let views: string[];
  let history: HistoryMessage[] = [];
  const provider = providerFor(settings);
  try {
    // A messageId made here is new: only one the client sent may name an answer already stored.
    const [[existing], context, queryEngine] = await Promise.all([
      opts.messageId === undefined
        ? ([] as MessageRow[])
        : deps.db
            .select()
            .from(chatMessages)
            .where(and(eq(chatMessages.threadId, thread.id), eq(chatMessages.id, messageId), eq(chatMessages.role, "assistant"))),
      securityContextOf(principal, deps.db),
      deps.queryEngines.get(deploymentId),
    ]);
    if (existing) {
      const view = messageView(existing);
      say({ __cutoff__: true, chatId: thread.id, messageId });
      end(existing.status === "error" && view.error ? { error: view.error } : { __state__: view });
      return follow(run);
    }
    engine = queryEngine;
    securityContext = context;
    const allViews = engine.meta(securityContext).sources.map((s) => s.name);
    const permitted = policyViews(settings.chatThreadPolicies, "create", allViews);
    views = opts.scope?.views ? permitted.filter((v) => opts.scope!.views!.includes(v)) : permitted;
    if (views.length === 0) throw forbidden("No view of this deployment may be asked about in a chat");
    // A model reads the thread's earlier text; the builtin engine reads each question alone.
    if (provider.name !== "builtin") {
      const previous = await deps.db.select().from(chatMessages).where(eq(chatMessages.threadId, thread.id)).orderBy(asc(chatMessages.createdAt)).limit(40);
      history = previous.filter((m) => m.status !== "running").map((m) => ({ role: m.role, content: m.content }));
    }
  } catch (e) {
    end({ error: e instanceof DomainError ? { code: e.code, message: e.message } : { code: "internal_error", message: "The answer failed" } });
    throw e;
  }

  say({ __cutoff__: true, chatId: thread.id, messageId });
  // The deltas stay in memory (`runs`, which a rejoin by messageId follows); the question, the
  // answer and the thread's touch are written once, in one statement, right after the answer's
  // last line has gone out (docs/ai.md "Figures"): until that write is stored, a rejoin replays
  // the run from memory and a read of the thread on this node waits for it. An answer still
  // being written after RUNNING_ROW_AFTER_MS is stored as `running` meanwhile (the thread then
  // shows it); most builtin answers end long before.
  const createdAt = new Date();
  const answerAt = new Date(createdAt.getTime() + 1);
  const question = sql`insert into ${chatMessages} (id, thread_id, role, content, status, created_at)
      values (${`${messageId}-q`}, ${thread.id}, 'user', ${opts.content}, 'completed', ${createdAt.toISOString()}::timestamptz)
      on conflict do nothing`;
  const touch = sql`update ${chatThreads} set updated_at = ${new Date().toISOString()}::timestamptz,
        title = case when ${chatThreads.title} = '' then ${opts.content.slice(0, 80)} else ${chatThreads.title} end
      where id = ${thread.id}`;
  let persisted: Promise<unknown> | null = null;
  const runningRow = setTimeout(() => {
    persisted = (async () => {
      await deps.db.execute(sql`
        with question as (${question}), answer as (
          insert into ${chatMessages} (id, thread_id, role, content, status, created_at)
          values (${messageId}, ${thread.id}, 'assistant', '', 'running', ${answerAt.toISOString()}::timestamptz)
        )
        ${touch}`);
    })();
    persisted.catch(() => {}); // the final write below stores the answer whether or not this one did
  }, RUNNING_ROW_AFTER_MS);

  const parts: AnswerPart[] = [];
  const emit = (part: AnswerPart) => {
    if (controller.signal.aborted) return;
    mergePart(parts, part);
    const { id, type, ...rest } = part;
    say({ id, isDelta: true, type, ...rest });
  };
  const textOf = () =>
    parts
      .filter((p) => p.type === "text")
      .map((p) => (p as { text: string }).text)
      .join("")
      .slice(0, 20_000);

  void (async () => {
    let error: { code: string; message: string } | undefined;
    try {
      await runTurn({
        provider,
        question: opts.content,
        history,
        timeBudgetMs: settings.timeBudgetMs,
        emit,
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
        },
      });
    } catch (e) {
      if (e instanceof AiError) error = { code: e.code, message: e.message };
      else if (e instanceof DomainError) error = { code: e.code, message: e.message };
      else {
        deps.logger.error("chat turn failed", { deploymentId, error: e instanceof Error ? e.message : String(e) });
        error = { code: "internal_error", message: "The answer failed" };
      }
    }
    const status = error ? "error" : "completed";
    const state = { parts, ...(error ? { error } : {}) };
    clearTimeout(runningRow);
    // The answer goes out first; it is stored right after (off the answer's time).
    finish(error ? { error } : { __state__: { id: messageId, role: "assistant", status, content: textOf(), parts, createdAt: answerAt.toISOString() } });
    const sent = opts.delivered ?? new Promise<void>((resolve) => setImmediate(resolve));
    const stored = Promise.race([sent, new Promise<void>((resolve) => setTimeout(resolve, DELIVERY_WAIT_MS))]).then(async () => {
      if (persisted) await Promise.resolve(persisted).catch(() => {});
      // The answer's row is inserted, or the running one completed; a stored answer of the same
      // id that is not running (a concurrent post on another node) is left as it is. A failed
      // write is tried again: the answer has been seen, it must not be lost.
      for (let attempt = 1; ; attempt++) {
        try {
          await deps.db.execute(sql`
            with question as (${question}), answer as (
              insert into ${chatMessages} (id, thread_id, role, content, status, state, created_at)
              values (${messageId}, ${thread.id}, 'assistant', ${textOf()}, ${status}, ${JSON.stringify(state)}::jsonb, ${answerAt.toISOString()}::timestamptz)
              on conflict (thread_id, id) do update set status = excluded.status, content = excluded.content, state = excluded.state
              where ${chatMessages}.status = 'running'
            )
            ${touch}`);
          return;
        } catch (e) {
          // The thread was deleted meanwhile: nothing to keep.
          if (pgError(e).code === "23503") return;
          if (attempt >= STORE_ATTEMPTS) {
            deps.logger.error("chat answer not stored", { deploymentId, attempts: attempt, error: e instanceof Error ? e.message : String(e) });
            return;
          }
          await new Promise((r) => setTimeout(r, 100 * 2 ** attempt));
        }
      }
    });
    const pending = { threadId: thread.id, ownerKey: ownerOf(principal).ownerKey, done: stored };
    pendingWrites.add(pending);
    await stored;
    pendingWrites.delete(pending);
    forget();
    opts.onEvent?.({ status, threadId: thread.id, messageId });
  })();

  return follow(run);
}
