/**
 * How a question and its answer are stored (docs/ai.md "Figures"): once, in one statement
 * with the thread's touch, right after the answer's last line has gone out; an answer still
 * being written after RUNNING_ROW_AFTER_MS is stored as `running` meanwhile.
 */
import { sql } from "drizzle-orm";
import type { AppDeps } from "../../context";
import { chatMessages, chatThreads } from "../../db/schema";
import { pgError } from "../../db/pg-error";
import type { AnswerPart } from "../../ai/types";

/** How long an answer may run before its `running` row is stored. */
export const RUNNING_ROW_AFTER_MS = 200;
/** How long the storing of an answer waits for its response to go out before it goes ahead. */
export const DELIVERY_WAIT_MS = 1000;
/** How often the write of a finished answer is tried before it is given up (and logged). */
const STORE_ATTEMPTS = 5;

/** The question and answer of one run, as stored. */
export interface StoredTurn {
  threadId: string;
  messageId: string;
  question: string;
  deploymentId: number;
  /** The question's time (the thread's touch); the answer is stored one millisecond after it, so it sorts after. */
  createdAt: Date;
}

const answerAtOf = (turn: StoredTurn) => new Date(turn.createdAt.getTime() + 1);

/** When the answer row is created: the time it is listed at. */
export function answerCreatedAt(turn: StoredTurn): string {
  return answerAtOf(turn).toISOString();
}

function statementsOf(turn: StoredTurn) {
  const question = sql`insert into ${chatMessages} (id, thread_id, role, content, status, created_at)
      values (${`${turn.messageId}-q`}, ${turn.threadId}, 'user', ${turn.question}, 'completed', ${turn.createdAt.toISOString()}::timestamptz)
      on conflict do nothing`;
  const touch = sql`update ${chatThreads} set updated_at = ${turn.createdAt.toISOString()}::timestamptz,
        title = case when ${chatThreads.title} = '' then ${turn.question.slice(0, 80)} else ${chatThreads.title} end
      where id = ${turn.threadId}`;
  return { question, touch };
}

/** Stores the question and a `running` answer (the thread then shows it while it is written). */
export async function storeRunningAnswer(deps: AppDeps, turn: StoredTurn): Promise<void> {
  const { question, touch } = statementsOf(turn);
  await deps.db.execute(sql`
    with question as (${question}), answer as (
      insert into ${chatMessages} (id, thread_id, role, content, status, created_at)
      values (${turn.messageId}, ${turn.threadId}, 'assistant', '', 'running', ${answerCreatedAt(turn)}::timestamptz)
    )
    ${touch}`);
}

/**
 * Stores the question and the finished answer: the answer's row is inserted, or the running one
 * completed; a stored answer of the same id that is not running (a concurrent post on another
 * node) is left as it is. A failed write is tried again: the answer has been seen, it must not
 * be lost. A deleted thread stores nothing.
 */
export async function storeAnswer(
  deps: AppDeps,
  turn: StoredTurn,
  answer: { status: "completed" | "error"; content: string; state: { parts: AnswerPart[]; error?: { code: string; message: string } } },
): Promise<void> {
  const { question, touch } = statementsOf(turn);
  for (let attempt = 1; ; attempt++) {
    try {
      await deps.db.execute(sql`
        with question as (${question}), answer as (
          insert into ${chatMessages} (id, thread_id, role, content, status, state, created_at)
          values (${turn.messageId}, ${turn.threadId}, 'assistant', ${answer.content}, ${answer.status}, ${JSON.stringify(answer.state)}::jsonb, ${answerCreatedAt(turn)}::timestamptz)
          on conflict (thread_id, id) do update set status = excluded.status, content = excluded.content, state = excluded.state
          where ${chatMessages}.status = 'running'
        )
        ${touch}`);
      return;
    } catch (e) {
      // The thread was deleted meanwhile: nothing to keep.
      if (pgError(e).code === "23503") return;
      if (attempt >= STORE_ATTEMPTS) {
        deps.logger.error("chat answer not stored", { deploymentId: turn.deploymentId, attempts: attempt, error: e instanceof Error ? e.message : String(e) });
        return;
      }
      await new Promise((r) => setTimeout(r, 100 * 2 ** attempt));
    }
  }
}
