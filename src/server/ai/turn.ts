/**
 * One turn of a chat: the provider of the settings answers one question within the time
 * budget. Whatever happens (a stalled server, an exception), the turn ends with an answer or
 * an AiError, and its signal stops the work still under way.
 */
import { builtinProvider } from "./builtin";
import { createOpenAiProvider } from "./openai-provider";
import type { AiSettings } from "./settings";
import { AiError, type AiProvider, type Emit, type HistoryMessage, type TurnContext } from "./types";

const providers = new Map<string, AiProvider>();

/** The provider of these settings (one client per server, model and key). */
export function providerFor(settings: AiSettings): AiProvider {
  if (settings.provider === "builtin") return builtinProvider;
  const key = JSON.stringify([settings.baseUrl, settings.model, settings.apiKey, settings.timeBudgetMs]);
  let p = providers.get(key);
  if (!p) {
    p = createOpenAiProvider(settings);
    providers.set(key, p);
    if (providers.size > 50) providers.delete(providers.keys().next().value!);
  }
  return p;
}

export async function runTurn(opts: {
  provider: AiProvider;
  question: string;
  history: HistoryMessage[];
  ctx: Omit<TurnContext, "signal">;
  timeBudgetMs: number;
  emit: Emit;
}): Promise<void> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const budget = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new AiError("ai_timeout", "The answer took longer than the time allowed"));
    }, opts.timeBudgetMs);
  });
  let ended = false;
  let answered = false;
  // Parts a provider emits after the turn ended (a stalled stream waking up) are dropped.
  const emit: Emit = (part) => {
    if (!ended) opts.emit(part);
  };
  try {
    await Promise.race([opts.provider.answer(opts.question, opts.history, { ...opts.ctx, signal: controller.signal }, emit), budget]);
    answered = true;
  } catch (e) {
    if (e instanceof AiError) throw e;
    if (controller.signal.aborted) throw new AiError("ai_timeout", "The answer took longer than the time allowed");
    throw e;
  } finally {
    ended = true;
    clearTimeout(timer);
    // A provider that failed or ran out of time may still be working: it is stopped. One that
    // answered has nothing left to stop.
    if (!answered) controller.abort();
  }
}
