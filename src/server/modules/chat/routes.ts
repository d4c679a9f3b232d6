import { createRoute, z } from "@hono/zod-openapi";
import { ChatId, ChatThread, ChatThreadWithMessages, CreateChatThreadInput, PostChatMessageInput } from "../../../schema/chat";
import { requirePrincipal } from "../../http/auth";
import { commonErrors, IdParam, jsonBody, jsonContent, notFoundError, security, type Router } from "../../http/openapi";
import { SafeText } from "../../../schema/common";
import { aiWidgetAnswer } from "./ai-widget";
import { resolveChatScope } from "./scope";
import { createThread, deleteThread, getThread, listThreads, postMessage } from "./service";

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
  security,
  request: { params: threadParams },
  responses: { 200: jsonContent(ChatThreadWithMessages, "The thread."), ...commonErrors, ...notFoundError },
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

const widgetAnswer = createRoute({
  operationId: "answerAiWidget",
  method: "post",
  path: "/api/v1/embed/dashboard/{publicId}/ai-widgets/{widgetId}/answer",
  tags: ["AI"],
  summary: "The AI widget's Markdown from the dashboard's data under the viewer's filters (cached by checksum; regenerate writes a new one)",
  security,
  request: {
    params: z.object({ publicId: ChatId, widgetId: ChatId }),
    ...jsonBody(z.strictObject({ filterUrlParameters: z.array(SafeText.max(2000)).max(100).optional(), regenerate: z.boolean().optional() }), {
      required: false,
    }),
  },
  responses: {
    200: jsonContent(
      z.object({ markdown: z.string(), checksum: z.string(), stale: z.boolean(), generatedAt: z.string() }).meta({ id: "AiWidgetAnswer" }),
      "The answer.",
    ),
    ...commonErrors,
    ...notFoundError,
  },
});

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
    return c.json(await getThread(c.get("deps"), requirePrincipal(c), deploymentId, threadId), 200);
  });

  app.openapi(remove, async (c) => {
    const { deploymentId, threadId } = c.req.valid("param");
    await deleteThread(c.get("deps"), requirePrincipal(c), deploymentId, threadId);
    return c.body(null, 204);
  });

  app.openapi(widgetAnswer, async (c) => {
    const { publicId, widgetId } = c.req.valid("param");
    const body = c.req.valid("json") ?? {};
    const principal = requirePrincipal(c);
    const locale = localeOf(principal.kind === "embed" ? principal.settings : undefined, c.req.header("accept-language"));
    return c.json(await aiWidgetAnswer(c.get("deps"), principal, publicId, widgetId, { ...body, locale }), 200);
  });

  app.openapi(post, async (c) => {
    const { deploymentId, threadId } = c.req.valid("param");
    const body = c.req.valid("json");
    const principal = requirePrincipal(c);
    const deps = c.get("deps");
    const scope = body.scope ? await resolveChatScope(deps, principal, deploymentId, body.scope) : undefined;
    const stream = await postMessage(deps, principal, deploymentId, threadId, {
      content: body.content,
      messageId: body.messageId,
      locale: localeOf(principal.kind === "embed" ? principal.settings : undefined, c.req.header("accept-language")),
      scope,
    });
    return new Response(stream, {
      status: 200,
      headers: { "content-type": "application/x-ndjson; charset=utf-8", "cache-control": "no-store", "x-content-type-options": "nosniff" },
    }) as never;
  });
}
