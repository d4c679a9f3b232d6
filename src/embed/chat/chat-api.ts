/**
 * The chat API from the embed: threads, and a question's answer read line by line from the
 * NDJSON stream as it arrives (decisions.md "AI").
 */
import type { AppliedChatContext, ChatContext } from "../../schema/chat";
import { apiError, type EmbedApi } from "../shell/api";

export interface ChatThreadSummary {
  id: string;
  title: string;
  updatedAt: string;
  /** Shared read-only with the owner's team. */
  shared?: boolean;
  /** Another user's thread shared with the caller. */
  readOnly?: boolean;
}

export type ChatPart = { id: string; type: string } & Record<string, unknown>;

export interface ChatMessageView {
  id: string;
  role: "user" | "assistant";
  status: "running" | "completed" | "error";
  content: string;
  parts: ChatPart[];
  error?: { code: string; message: string };
}

/** One streamed line. */
export type ChatLine =
  | { __cutoff__: true; chatId: string; messageId: string }
  | ({ id: string; isDelta: true; type: string } & Record<string, unknown>)
  | { __state__: ChatMessageView }
  | { error: { code: string; message: string } };

async function call<T>(api: EmbedApi, method: string, path: string, body?: unknown): Promise<T> {
  let res: Response;
  try {
    res = await api.fetch(path, {
      method,
      ...(body !== undefined ? { headers: { "content-type": "application/json" } } : {}),
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
  } catch {
    throw apiError(0, "network_error", "The platform could not be reached");
  }
  if (!res.ok) {
    const err = (await res.json().catch(() => ({}))) as { code?: string; message?: string };
    throw apiError(res.status, err.code ?? "error", err.message ?? res.statusText);
  }
  return (res.status === 204 ? undefined : await res.json()) as T;
}

/** Where the caller may save an answer as a report (`allowed: false` when they may not). */
export interface ReportDestinations {
  allowed: boolean;
  folders: { id: number; name: string; path: { id: number; name: string }[] }[];
  workbooks: { id: number; name: string; path: { id: number; name: string }[] }[];
}

export type ReportDestination = { kind: "personal" } | { kind: "folder"; folderId: number } | { kind: "workbook"; workbookId: number };

export interface SavedReport {
  report: { id: number; publicId: string; name: string };
  workbook: { id: number; name: string; created: boolean };
  folderPath: { id: number; name: string }[];
  appPath: string;
}

const base = (deploymentId: number) => `/api/v1/deployments/${deploymentId}/chat/threads`;

export const chatApi = {
  list: (api: EmbedApi, deploymentId: number) => call<{ data: ChatThreadSummary[] }>(api, "GET", base(deploymentId)).then((r) => r.data),
  create: (api: EmbedApi, deploymentId: number) => call<ChatThreadSummary>(api, "POST", base(deploymentId), {}),
  get: (api: EmbedApi, deploymentId: number, threadId: string) =>
    call<ChatThreadSummary & { messages: ChatMessageView[] }>(api, "GET", `${base(deploymentId)}/${encodeURIComponent(threadId)}`),
  shared: (api: EmbedApi, deploymentId: number) =>
    call<{ data: ChatThreadSummary[]; canShare: boolean }>(api, "GET", `/api/v1/deployments/${deploymentId}/chat/shared-threads`),
  share: (api: EmbedApi, deploymentId: number, threadId: string, shared: boolean) =>
    call<ChatThreadSummary>(api, "PUT", `${base(deploymentId)}/${encodeURIComponent(threadId)}/share`, { shared }),
  remove: (api: EmbedApi, deploymentId: number, threadId: string) => call<void>(api, "DELETE", `${base(deploymentId)}/${encodeURIComponent(threadId)}`),

  destinations: (api: EmbedApi, deploymentId: number) => call<ReportDestinations>(api, "GET", `/api/v1/deployments/${deploymentId}/chat/report-destinations`),
  saveReport: (api: EmbedApi, deploymentId: number, threadId: string, messageId: string, body: { name: string; destination: ReportDestination }) =>
    call<SavedReport>(api, "POST", `${base(deploymentId)}/${encodeURIComponent(threadId)}/messages/${encodeURIComponent(messageId)}/report`, body),

  /** Posts a question and calls `onLine` for every line of the answer; resolves at the end of the stream. */
  /** What the platform applies of a host page's AI context for this viewer; throws its refusal (400 naming the field). */
  checkContext(api: EmbedApi, deploymentId: number, context: ChatContext): Promise<AppliedChatContext> {
    return call<AppliedChatContext>(api, "POST", `/api/v1/deployments/${deploymentId}/chat/context`, context);
  },
  async ask(
    api: EmbedApi,
    deploymentId: number,
    threadId: string,
    body: { content: string; messageId: string; scope?: { dashboardPublicId: string; filterUrlParameters?: string[] }; context?: ChatContext },
    onLine: (line: ChatLine) => void,
    signal?: AbortSignal,
  ): Promise<void> {
    let res: Response;
    try {
      res = await api.fetch(`${base(deploymentId)}/${encodeURIComponent(threadId)}/messages`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
        signal,
      });
    } catch (e) {
      if ((e as { name?: string }).name === "AbortError") throw e;
      throw apiError(0, "network_error", "The platform could not be reached");
    }
    if (!res.ok || !res.body) {
      const err = (await res.json().catch(() => ({}))) as { code?: string; message?: string };
      throw apiError(res.status, err.code ?? "error", err.message ?? res.statusText);
    }
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (value) buffer += value;
      let nl: number;
      while ((nl = buffer.indexOf("\n")) >= 0) {
        const line = buffer.slice(0, nl).trim();
        buffer = buffer.slice(nl + 1);
        if (line) onLine(JSON.parse(line) as ChatLine);
      }
      if (done) break;
    }
    if (buffer.trim()) onLine(JSON.parse(buffer) as ChatLine);
  },
};

/** A fresh message id (the key that lets a client rejoin its answer). */
export function newMessageId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}
