import { createRoute, z } from "@hono/zod-openapi";
import {
  AppliedChatContext,
  ChatContext,
  ChatId,
  ChatReportDestinations,
  ChatThread,
  ChatThreadWithMessages,
  CreateChatThreadInput,
  PostChatMessageInput,
  SaveChatReportInput,
  SavedChatReport,
  ShareChatThreadInput,
} from "../../../schema/chat";
import { requirePrincipal } from "../../http/auth";
import { commonErrors, IdParam, jsonBody, jsonContent, notFoundError, security, type Router } from "../../http/openapi";
import { ErrorBody, SafeText, Timestamp } from "../../../schema/common";
import { ContentLocale } from "../../../schema/semantic-query";
import { aiWidgetAnswer } from "./ai-widget";
import { authoringActor, authoringRefusal, reportDestinations, saveAnswerAsReport, saveQueryAsReport } from "./save-report";
import { narrowScope, resolveAiContext } from "./ai-context";
import { resolveChatScope } from "./scope";
import { createThread, deleteThread, listThreads, postMessage } from "./service";
import { listSharedThreads, readThread, shareThread } from "./share";

const params = z.object({ deploymentId: IdParam });
const threadParams = z.object({ deploymentId: IdParam, threadId: ChatId });

const create = createRoute({
  operationId: "createChatThread",
  method: "post",
  path: "/api/v1/deployments/{deploymentId}/chat/threads",
  tags: ["AI"],
  summary: "Start a chat thread (the caller's own)",
  security,
  request: { params, ...jsonBody(CreateChatThreadInput, { required: false }) },
  responses: { 201: jsonContent(ChatThread, "The thread."), ...commonErrors, ...notFoundError },
});

const list = createRoute({
  operationId: "listChatThreads",
  method: "get",
  path: "/api/v1/deployments/{deploymentId}/chat/threads",
  tags: ["AI"],
  summary: "The caller's chat threads, newest first",
  security,
  request: { params },
  responses: { 200: jsonContent(z.object({ data: z.array(ChatThread) }), "Threads."), ...commonErrors, ...notFoundError },
});

const get = createRoute({
  operationId: "getChatThread",
  method: "get",
  path: "/api/v1/deployments/{deploymentId}/chat/threads/{threadId}",
  tags: ["AI"],
  summary: "A thread with its messages (answers with their charts, tables and queries)",
  description:
    "The caller's own thread, or one shared with them (`readOnly: true`): then its questions and, for each answer, its query run again under the caller's security context — never the owner's rows or words.",
  security,
  request: { params: threadParams },
  responses: { 200: jsonContent(ChatThreadWithMessages, "The thread."), ...commonErrors, ...notFoundError },
});

const share = createRoute({
  operationId: "shareChatThread",
  method: "put",
  path: "/api/v1/deployments/{deploymentId}/chat/threads/{threadId}/share",
  tags: ["AI"],
  summary: "Share a thread read-only with the owner's audience (their embed tenant's users, or the platform's users), or stop sharing it",
  description: "Owner only; governed by the `share` action of `chatThreadPolicies`. Never across tenants.",
  security,
  request: { params: threadParams, ...jsonBody(ShareChatThreadInput) },
  responses: { 200: jsonContent(ChatThread, "The thread."), ...commonErrors, ...notFoundError },
});

const sharedList = createRoute({
  operationId: "listSharedChatThreads",
  method: "get",
  path: "/api/v1/deployments/{deploymentId}/chat/shared-threads",
  tags: ["AI"],
  summary: "Other users' threads shared with the caller (read-only), newest first",
  security,
  request: { params },
  responses: {
    200: jsonContent(
      z.object({ data: z.array(ChatThread), canShare: z.boolean().meta({ description: "Whether the caller may share their own threads." }) }),
      "Threads.",
    ),
    ...commonErrors,
    ...notFoundError,
  },
});

const remove = createRoute({
  operationId: "deleteChatThread",
  method: "delete",
  path: "/api/v1/deployments/{deploymentId}/chat/threads/{threadId}",
  tags: ["AI"],
  summary: "Delete a thread and its messages",
  security,
  request: { params: threadParams },
  responses: { 204: { description: "Deleted." }, ...commonErrors, ...notFoundError },
});

const post = createRoute({
  operationId: "postChatMessage",
  method: "post",
  path: "/api/v1/deployments/{deploymentId}/chat/threads/{threadId}/messages",
  tags: ["AI"],
  summary: "Ask a question; the answer streams as NDJSON (posting the same messageId again rejoins it)",
  description:
    'Lines: `{"__cutoff__": true, "chatId", "messageId"}`, then deltas `{"id", "isDelta": true, "type": "text" | "tool_call" | "tool_result" | "chart" | "table" | "query" | "suggestions", …}`, last `{"__state__": message}` or `{"error": {"code", "message"}}`.',
  security,
  request: { params: threadParams, ...jsonBody(PostChatMessageInput) },
  responses: {
    200: { description: "The answer as newline-delimited JSON.", content: { "application/x-ndjson": { schema: z.string() } } },
    ...commonErrors,
    ...notFoundError,
  },
});

const checkContext = createRoute({
  operationId: "checkChatContext",
  method: "post",
  path: "/api/v1/deployments/{deploymentId}/chat/context",
  tags: ["AI"],
  summary: "Check a host page's AI context (set-ai-context) against what the caller may ask about, and say what would be applied",
  description:
    "400 `validation_failed` naming the field (`views.0`, `filters.1.member`, …; `context.…` on a question) for a view or member that does not exist or the caller may not see, or a value unfit for its operator. The same check runs on every question that carries the context.",
  security,
  request: { params, ...jsonBody(ChatContext) },
  responses: { 200: jsonContent(AppliedChatContext, "What answers will apply."), ...commonErrors, ...notFoundError },
});

const destinations = createRoute({
  operationId: "getChatReportDestinations",
  method: "get",
  path: "/api/v1/deployments/{deploymentId}/chat/report-destinations",
  tags: ["AI"],
  summary: "Whether the caller may save chat answers as reports, and the folders and workbooks they can save into",
  description:
    "Platform users need the role ai_bi_user or higher; embed sessions need `allowChatWorkspaceAuthoring` and creator mode. `allowed: false` names the reason.",
  security,
  request: { params },
  responses: { 200: jsonContent(ChatReportDestinations, "The destinations."), ...commonErrors, ...notFoundError },
});

const saveReport = createRoute({
  operationId: "saveChatAnswerAsReport",
  method: "post",
  path: "/api/v1/deployments/{deploymentId}/chat/threads/{threadId}/messages/{messageId}/report",
  tags: ["AI"],
  summary: "Save a finished answer's query (and chart) as a report: a new workbook in the personal space or a folder, or a sheet of a workbook",
  description: "403 unless the caller may author (see getChatReportDestinations); 409 while the answer is still being written.",
  security,
  request: { params: threadParams.extend({ messageId: ChatId }), ...jsonBody(SaveChatReportInput) },
  responses: { 201: jsonContent(SavedChatReport, "The saved report and where it is."), ...commonErrors, ...notFoundError },
});

const widgetAnswer = createRoute({
  operationId: "answerAiWidget",
  method: "post",
  path: "/api/v1/embed/dashboard/{publicId}/ai-widgets/{widgetId}/answer",
  tags: ["AI"],
  summary: "The AI widget's Markdown from the dashboard's data under the viewer's filters (cached by checksum; regenerate writes a new one)",
  security,
  request: {
    params: z.object({ publicId: ChatId, widgetId: ChatId }),
    ...jsonBody(
      z.strictObject({
        filterUrlParameters: z.array(SafeText.max(2000)).max(100).optional(),
        regenerate: z.boolean().optional(),
        locale: ContentLocale.optional().meta({
          description: "The language to write in (the embed's locale after a set-locale); default: the session's, else Accept-Language.",
        }),
      }),
      {
        required: false,
      },
    ),
  },
  responses: {
    200: jsonContent(
      z.object({ markdown: z.string(), checksum: z.string(), stale: z.boolean(), generatedAt: Timestamp }).meta({ id: "AiWidgetAnswer" }),
      "The answer.",
    ),
    ...commonErrors,
    ...notFoundError,
    502: jsonContent(ErrorBody, "The model failed or gave no answer (`upstream_failed`)."),
  },
});

/**
 * Resolves when the response has gone out to the client (node server: `finish`, or `close`
 * when the client left), so that storing the answer never delays it. Undefined elsewhere.
 */
function deliveredOf(env: unknown): Promise<void> | undefined {
  const outgoing = (env as { outgoing?: { once?: (event: string, fn: () => void) => unknown } } | undefined)?.outgoing;
  if (typeof outgoing?.once !== "function") return undefined;
  return new Promise<void>((resolve) => {
    outgoing.once!("finish", resolve);
    outgoing.once!("close", resolve);
  });
}

/** The language the answer is written in: the embed session's locale, else the request's. */
function localeOf(settings: Record<string, unknown> | undefined, acceptLanguage: string | undefined): string {
  const fromSession = typeof settings?.locale === "string" ? settings.locale : undefined;
  const fromHeader = acceptLanguage?.split(",")[0]?.trim();
  return (fromSession ?? fromHeader ?? "en").slice(0, 35);
}

export function registerChatRoutes(app: Router) {
  app.openapi(create, async (c) => {
    const { deploymentId } = c.req.valid("param");
    const body = c.req.valid("json") ?? {};
    return c.json(await createThread(c.get("deps"), requirePrincipal(c), deploymentId, body), 201);
  });

  app.openapi(list, async (c) => {
    const { deploymentId } = c.req.valid("param");
    return c.json({ data: await listThreads(c.get("deps"), requirePrincipal(c), deploymentId) }, 200);
  });

  app.openapi(get, async (c) => {
    const { deploymentId, threadId } = c.req.valid("param");
    const principal = requirePrincipal(c);
    const locale = localeOf(principal.kind === "embed" ? principal.settings : undefined, c.req.header("accept-language"));
    return c.json(await readThread(c.get("deps"), principal, deploymentId, threadId, locale), 200);
  });

  app.openapi(share, async (c) => {
    const { deploymentId, threadId } = c.req.valid("param");
    return c.json(await shareThread(c.get("deps"), requirePrincipal(c), deploymentId, threadId, c.req.valid("json").shared), 200);
  });

  app.openapi(sharedList, async (c) => {
    const { deploymentId } = c.req.valid("param");
    return c.json(await listSharedThreads(c.get("deps"), requirePrincipal(c), deploymentId), 200);
  });

  app.openapi(remove, async (c) => {
    const { deploymentId, threadId } = c.req.valid("param");
    await deleteThread(c.get("deps"), requirePrincipal(c), deploymentId, threadId);
    return c.body(null, 204);
  });

  app.openapi(checkContext, async (c) => {
    const { deploymentId } = c.req.valid("param");
    return c.json((await resolveAiContext(c.get("deps"), requirePrincipal(c), deploymentId, c.req.valid("json"), [])).applied, 200);
  });

  app.openapi(destinations, async (c) => {
    const { deploymentId } = c.req.valid("param");
    return c.json(await reportDestinations(c.get("deps"), requirePrincipal(c), deploymentId), 200);
  });

  app.openapi(saveReport, async (c) => {
    const { deploymentId, threadId, messageId } = c.req.valid("param");
    const body = c.req.valid("json");
    return c.json(await saveAnswerAsReport(c.get("deps"), requirePrincipal(c), deploymentId, threadId, messageId, body), 201);
  });

  app.openapi(widgetAnswer, async (c) => {
    const { publicId, widgetId } = c.req.valid("param");
    const body = c.req.valid("json") ?? {};
    const principal = requirePrincipal(c);
    const locale = body.locale ?? localeOf(principal.kind === "embed" ? principal.settings : undefined, c.req.header("accept-language"));
    return c.json(await aiWidgetAnswer(c.get("deps"), principal, publicId, widgetId, { ...body, locale }), 200);
  });

  app.openapi(post, async (c) => {
    const { deploymentId, threadId } = c.req.valid("param");
    const body = c.req.valid("json");
    const principal = requirePrincipal(c);
    const deps = c.get("deps");
    // The host page's context narrows the dashboard's scope, never replaces it.
    const [dashboardScope, context] = await Promise.all([
      body.scope ? resolveChatScope(deps, principal, deploymentId, body.scope) : undefined,
      body.context ? resolveAiContext(deps, principal, deploymentId, body.context) : undefined,
    ]);
    const scope = narrowScope(dashboardScope, context?.scope);
    const stream = await postMessage(deps, principal, deploymentId, threadId, {
      content: body.content,
      messageId: body.messageId,
      locale: localeOf(principal.kind === "embed" ? principal.settings : undefined, c.req.header("accept-language")),
      scope,
      ...(context ? { context } : {}),
      delivered: deliveredOf(c.env),
      // `save_report` for a model: a new workbook in the caller's personal space.
      ...(authoringRefusal(principal) === null
        ? {
            saveReport: async ({ title, query }: { title: string; query: Parameters<typeof saveQueryAsReport>[3]["query"] }) => {
              const actor = await authoringActor(deps, principal, deploymentId);
              const saved = await saveQueryAsReport(deps, actor, deploymentId, { name: title, destination: { kind: "personal" }, query });
              return { id: String(saved.report.id), title: saved.report.name };
            },
          }
        : {}),
    });
    return new Response(stream, {
      status: 200,
      headers: { "content-type": "application/x-ndjson; charset=utf-8", "cache-control": "no-store", "x-content-type-options": "nosniff" },
    }) as never;
  });
}
