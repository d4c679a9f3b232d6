/**
 * Writes the answer of a run that has been prepared (docs/ai.md "How a chat run proceeds"):
 * `streaming` (or `cancelled`) while the turn runs, `storing` once its last line is said,
 * `done` once it is stored. Detached from the request: the answer goes on being written when
 * its client goes away, and a rejoin by messageId follows it in the registry.
 */
import type { AppDeps } from "../../context";
import { runTurn } from "../../ai/turn";
import type { AiProvider, AnswerPart, HistoryMessage, TurnContext } from "../../ai/types";
import { answerCreatedAt, DELIVERY_WAIT_MS, RUNNING_ROW_AFTER_MS, storeAnswer, storeRunningAnswer, type StoredTurn } from "./answer-storage";
import { domainErrorOf, errorLine, INTERNAL_ERROR_LINE } from "./run-error";
import type { ChatRun, ChatRunRegistry, Line } from "./run-registry";

/** Everything the turn of a prepared run needs. */
export interface PreparedAnswer {
  provider: AiProvider;
  history: HistoryMessage[];
  timeBudgetMs: number;
  ctx: Omit<TurnContext, "signal">;
  turn: StoredTurn;
  /** A sentence the answer opens with, before the provider's (the host page's AI context it was answered for). */
  lead?: string;
  /** Resolves when the answer's response has gone out; its storing waits for it (at most DELIVERY_WAIT_MS). */
  delivered?: Promise<void>;
  /** Called once the answer has ended and been stored. */
  onEvent?: (e: { status: "completed" | "error"; threadId: string; messageId: string }) => void;
}

/** Merges a streamed part into the message's parts: text deltas with one id are joined. */
export function mergePart(parts: AnswerPart[], part: AnswerPart) {
  const last = parts[parts.length - 1];
  if (part.type === "text" && last && last.type === "text" && last.id === part.id) last.text += part.text;
  else parts.push(part.type === "text" ? { ...part } : part);
}

/** The answer's text, as stored and sent in `__state__`. */
function textOf(parts: AnswerPart[]): string {
  return parts
    .filter((p) => p.type === "text")
    .map((p) => p.text)
    .join("")
    .slice(0, 20_000);
}

/** Runs the turn of a `streaming` run to its end, says its last line and stores it; returns at once. */
export function writeAnswer(deps: AppDeps, runs: ChatRunRegistry, run: ChatRun, answer: PreparedAnswer): void {
  const { turn } = answer;
  // Most builtin answers end long before the `running` row would be stored; one that does not
  // shows in its thread meanwhile. The final write stores the answer whether or not this one did.
  let runningRow: Promise<void> | null = null;
  const runningRowTimer = setTimeout(() => {
    runningRow = storeRunningAnswer(deps, turn);
    runningRow.catch(() => {});
  }, RUNNING_ROW_AFTER_MS);

  const parts: AnswerPart[] = [];
  const emit = (part: AnswerPart) => {
    // A cancelled run (its thread is being deleted) says nothing more until its end.
    if (run.state === "cancelled") return;
    mergePart(parts, part);
    const { id, type, ...rest } = part;
    runs.say(run, { id, isDelta: true, type, ...rest });
  };

  void (async () => {
    let error: { error: { code: string; message: string } } | undefined;
    try {
      if (answer.lead) emit({ id: `lead-${turn.messageId}`, type: "text", text: answer.lead });
      await runTurn({ provider: answer.provider, question: turn.question, history: answer.history, timeBudgetMs: answer.timeBudgetMs, emit, ctx: answer.ctx });
    } catch (e) {
      const known = domainErrorOf(e);
      if (!known) deps.logger.error("chat turn failed", { deploymentId: turn.deploymentId, error: e instanceof Error ? e.message : String(e) });
      error = known ? errorLine(known) : INTERNAL_ERROR_LINE;
    }
    clearTimeout(runningRowTimer);
    const status = error ? "error" : "completed";
    const content = textOf(parts);
    // The answer goes out first; it is stored right after (off the answer's time).
    const sent = answer.delivered ?? new Promise<void>((resolve) => setImmediate(resolve));
    const stored = Promise.race([sent, new Promise<void>((resolve) => setTimeout(resolve, DELIVERY_WAIT_MS))]).then(async () => {
      if (runningRow) await runningRow.catch(() => {});
      await storeAnswer(deps, turn, { status, content, state: { parts, ...error } });
    });
    const last: Line = error ?? {
      __state__: { id: turn.messageId, role: "assistant", status, content, parts, createdAt: answerCreatedAt(turn) },
    };
    runs.advance(run, "answered", { line: last, stored });
    await stored;
    runs.advance(run, "stored");
    answer.onEvent?.({ status, threadId: turn.threadId, messageId: turn.messageId });
  })();
}
