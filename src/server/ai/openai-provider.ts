/**
 * The `openai-compatible` provider: `/v1/chat/completions` with streamed tool calls (OpenAI,
 * Ollama, vLLM, the llama.cpp server, compatible proxies), through the `openai` SDK. The model
 * sees the tools, the question and the thread's earlier text — never a key, a token, a session
 * or a row the viewer may not see (tool results come from queries under the viewer's security
 * context, capped in size).
 */
import type OpenAI from "openai";
import type { ChatCompletionMessageParam, ChatCompletionTool } from "openai/resources/chat/completions";
import { callTool, partId } from "./builtin";
import type { AiSettings } from "./settings";
import { toolDefinitions, type ToolState } from "./tools";
import { AiError, MAX_STEPS, type AiProvider, type Emit, type HistoryMessage, type TurnContext } from "./types";

const LANGUAGE_NAMES: Record<string, string> = { en: "English", de: "German", es: "Spanish", fr: "French", it: "Italian", pt: "Portuguese", nl: "Dutch" };

function systemPrompt(ctx: TurnContext): string {
  const language = LANGUAGE_NAMES[ctx.locale.slice(0, 2)] ?? "the language of the question";
  return [
    "You answer questions about business data through tools. You never write SQL: run_query takes a semantic query JSON",
    "(measures, dimensions, timeDimensions, filters, order, limit) over members named `<view>.<member>`.",
    "Start with list_views and describe_view, then run_query; use render_chart when a chart helps.",
    "Use only numbers the tools returned. If the data model cannot answer, say so and suggest questions it can answer.",
    `Answer briefly in Markdown, in ${language} unless the question is in another language.`,
    ctx.extraFilters?.length ? "The dashboard's filters are applied to every query for you." : "",
  ]
    .filter(Boolean)
    .join(" ");
}

interface PendingCall {
  id: string;
  name: string;
  args: string;
}

/** The SDK, loaded when a provider for a model server is made (only where one is configured), not with the server. */
let sdk: Promise<typeof OpenAI> | null = null;
const loadSdk = () => (sdk ??= import("openai").then((m) => m.default));

function mapError(e: unknown, signal: AbortSignal, SDK: typeof OpenAI | null): AiError {
  if (e instanceof AiError) return e;
  if (signal.aborted) return new AiError("ai_timeout", "The answer took longer than the time allowed");
  if (SDK && e instanceof SDK.APIError) {
    if (e.status === 429) return new AiError("ai_rate_limited", "The model server is busy (rate limited); try again shortly");
    if (e.status === 401 || e.status === 403) return new AiError("ai_provider_failed", "The model server refused the platform's credentials");
    if (typeof e.status === "number") return new AiError("ai_provider_failed", `The model server answered with status ${e.status}`);
    return new AiError("ai_provider_failed", "The model server could not be reached");
  }
  return new AiError("ai_provider_failed", "The model server's answer could not be read");
}

export function createOpenAiProvider(settings: AiSettings): AiProvider {
  // Loaded now where a model server is configured (only there), so the first answer does not wait for it.
  loadSdk().catch(() => {});
  let client: OpenAI | null = null;
  const clientOf = (SDK: typeof OpenAI) =>
    (client ??= new SDK({
      baseURL: settings.baseUrl,
      // Local servers (Ollama, llama.cpp) take no key; the SDK needs a non-empty string.
      apiKey: settings.apiKey ?? "not-needed",
      maxRetries: 0,
      timeout: settings.timeBudgetMs,
    }));
  const model = settings.model ?? "gpt-4o-mini";

  return {
    name: "openai-compatible",
    async answer(question: string, history: HistoryMessage[], ctx: TurnContext, emit: Emit) {
      const tools: ChatCompletionTool[] = toolDefinitions(ctx.allowAuthoring).map((t) => ({
        type: "function",
        function: { name: t.name, description: t.description, parameters: t.parameters as Record<string, unknown> },
      }));
      const messages: ChatCompletionMessageParam[] = [
        { role: "system", content: systemPrompt(ctx) },
        ...history.slice(-10).map((m) => ({ role: m.role, content: m.content.slice(0, 4000) }) as ChatCompletionMessageParam),
        { role: "user", content: question },
      ];
      let SDK: typeof OpenAI;
      try {
        SDK = await loadSdk();
      } catch (e) {
        throw mapError(e, ctx.signal, null);
      }
      const state: ToolState = {};
      let steps = 0;
      for (let round = 0; round <= MAX_STEPS; round++) {
        const lastRound = steps >= MAX_STEPS;
        const textId = partId();
        let text = "";
        const calls = new Map<number, PendingCall>();
        try {
          const stream = await clientOf(SDK).chat.completions.create(
            { model, messages, stream: true, ...(lastRound ? {} : { tools, tool_choice: "auto" as const }) },
            { signal: ctx.signal },
          );
          for await (const chunk of stream) {
            if (ctx.signal.aborted) throw new AiError("ai_timeout", "The answer took longer than the time allowed");
            const delta = chunk.choices?.[0]?.delta;
            if (!delta) continue;
            if (typeof delta.content === "string" && delta.content.length > 0) {
              text += delta.content;
              emit({ id: textId, type: "text", text: delta.content });
            }
            for (const tc of delta.tool_calls ?? []) {
              const index = typeof tc.index === "number" ? tc.index : 0;
              const pending = calls.get(index) ?? { id: "", name: "", args: "" };
              if (tc.id) pending.id = tc.id;
              if (tc.function?.name) pending.name += tc.function.name;
              if (tc.function?.arguments) pending.args += tc.function.arguments;
              calls.set(index, pending);
              if (calls.size > 16 || pending.args.length > 64_000) throw new AiError("ai_invalid_response", "The model sent more tool calls than allowed");
            }
          }
        } catch (e) {
          throw mapError(e, ctx.signal, SDK);
        }
        if (calls.size === 0 || lastRound) {
          if (!text.trim()) throw new AiError("ai_invalid_response", "The model gave no answer");
          return;
        }
        const list = [...calls.values()].map((c, i) => ({ ...c, id: c.id || `call_${round}_${i}` }));
        messages.push({
          role: "assistant",
          content: text || null,
          tool_calls: list.map((c) => ({ id: c.id, type: "function" as const, function: { name: c.name, arguments: c.args } })),
        });
        for (const call of list) {
          steps++;
          if (steps > MAX_STEPS) {
            messages.push({ role: "tool", tool_call_id: call.id, content: JSON.stringify({ error: "Step limit reached: answer now with what you have" }) });
            continue;
          }
          const outcome = await callTool(call.name, call.args, ctx, state, emit);
          messages.push({ role: "tool", tool_call_id: call.id, content: outcome.content });
        }
      }
      throw new AiError("ai_step_limit", `No answer within ${MAX_STEPS} steps`);
    },
  };
}
