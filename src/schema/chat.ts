import { z } from "zod";
import { Id, Name, SafeText, Timestamp } from "./common";
import { DASHBOARD_FILTER_OPERATORS, MEMBER_NAME_PATTERN } from "./dashboard-filters";

/** decisions.md "AI": one rule of `ai.chatThreadPolicies` in tenant settings; deny wins. */
export const ChatThreadPolicy = z
  .strictObject({
    actions: z
      .array(z.enum(["read", "create", "share", "delete"]))
      .min(1)
      .max(4),
    effect: z.enum(["allow", "deny"]),
    resourceType: z.literal("chatThread"),
    resources: z.array(SafeText.min(1).max(255)).min(1).max(200),
  })
  .meta({ id: "ChatThreadPolicy" });
export type ChatThreadPolicy = z.infer<typeof ChatThreadPolicy>;

/** Thread ids and message ids: opaque, URL-safe. */
export const ChatId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "letters, digits, _ and -, at most 64");

export const ChatThread = z
  .object({
    id: z.string(),
    deploymentId: z.number(),
    title: z.string(),
    /** Shared read-only with the owner's audience (their embed tenant, or the platform's users). */
    shared: z.boolean(),
    /** Another user's thread shared with the caller: read-only, its figures computed again for the caller. */
    readOnly: z.boolean().optional(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: "ChatThread" });
export type ChatThread = z.infer<typeof ChatThread>;

/** One part of an answer (text, a tool step, a query, a table, a chart, suggestions). */
export const ChatPart = z.object({ id: z.string(), type: z.string() }).passthrough().meta({ id: "ChatPart" });

export const ChatMessage = z
  .object({
    id: z.string(),
    role: z.enum(["user", "assistant"]),
    status: z.enum(["running", "completed", "error"]),
    content: z.string(),
    parts: z.array(ChatPart),
    error: z.object({ code: z.string(), message: z.string() }).optional(),
    createdAt: Timestamp,
  })
  .meta({ id: "ChatMessage" });
export type ChatMessage = z.infer<typeof ChatMessage>;

export const ChatThreadWithMessages = ChatThread.extend({ messages: z.array(ChatMessage) }).meta({ id: "ChatThreadWithMessages" });

export const ShareChatThreadInput = z.strictObject({ shared: z.boolean() }).meta({ id: "ShareChatThreadInput" });

export const CreateChatThreadInput = z.strictObject({ title: SafeText.trim().max(200).optional() }).meta({ id: "CreateChatThreadInput" });

/** The dashboard a dashboard chat is about: its views and filters scope every query. */
export const ChatScope = z
  .strictObject({
    dashboardPublicId: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/),
    filterUrlParameters: z.array(SafeText.max(2000)).max(100).optional(),
  })
  .meta({ id: "ChatScope" });

/** The bounds of an AI context; the protocol's guard has the same (AI_CONTEXT_LIMITS, checked equal in the chat tests). */
export const CHAT_CONTEXT_LIMITS = { title: 200, description: 1000, filters: 20, views: 20, member: 255, values: 100 } as const;
const AI_CONTEXT_LIMITS = CHAT_CONTEXT_LIMITS;

const ContextScalar = z.union([SafeText.max(10_000), z.number().finite(), z.boolean()]);

/** One filter of an AI context: `set-filter`'s JSON (`{operator?, value?}`) with its member. */
export const ChatContextFilter = z
  .strictObject({
    member: z.string().regex(MEMBER_NAME_PATTERN, "a <view>.<dimension> member name").max(AI_CONTEXT_LIMITS.member),
    operator: z.enum(DASHBOARD_FILTER_OPERATORS).optional().meta({ description: "Default `equals`." }),
    value: z.union([ContextScalar, z.array(ContextScalar).min(1).max(AI_CONTEXT_LIMITS.values)]).optional(),
  })
  .meta({ id: "ChatContextFilter" });

/**
 * What the host page is about (`svc:action:set-ai-context`): its filters narrow every query of
 * the answer under row-level security, its views are the only ones the answer may use. It can
 * only narrow: the session's scope and its security context still apply (docs/ai.md).
 */
export const ChatContext = z
  .strictObject({
    title: SafeText.trim().max(AI_CONTEXT_LIMITS.title).optional(),
    description: SafeText.trim().max(AI_CONTEXT_LIMITS.description).optional(),
    filters: z.array(ChatContextFilter).max(AI_CONTEXT_LIMITS.filters).optional(),
    views: z
      .array(
        z
          .string()
          .regex(/^[_a-zA-Z][_a-zA-Z0-9]*$/, "a view name")
          .max(255),
      )
      .max(AI_CONTEXT_LIMITS.views)
      .optional(),
  })
  .meta({ id: "ChatContext" });
export type ChatContext = z.infer<typeof ChatContext>;

/** A context as the server applies it: its views and its filters as query filters. */
export const AppliedChatContext = z
  .object({
    title: z.string().optional(),
    description: z.string().optional(),
    views: z.array(z.string()).meta({ description: "The views answers may use (the context's, within what the viewer may ask about)." }),
    filters: z.array(ChatContextFilter),
  })
  .meta({ id: "AppliedChatContext" });
export type AppliedChatContext = z.infer<typeof AppliedChatContext>;

export const PostChatMessageInput = z
  .strictObject({
    content: SafeText.trim().min(1).max(4000),
    messageId: ChatId.optional(),
    scope: ChatScope.optional(),
    context: ChatContext.optional().meta({ description: "The host page's AI context (`set-ai-context`); narrows the answer, never widens it." }),
  })
  .meta({ id: "PostChatMessageInput" });
export type PostChatMessageInput = z.infer<typeof PostChatMessageInput>;

/** Where "save as report" puts an answer: the caller's personal space, a folder, or a workbook they can edit. */
export const ChatReportDestination = z
  .discriminatedUnion("kind", [
    z.strictObject({ kind: z.literal("personal") }),
    z.strictObject({ kind: z.literal("folder"), folderId: Id }),
    z.strictObject({ kind: z.literal("workbook"), workbookId: Id }),
  ])
  .meta({ id: "ChatReportDestination" });
export type ChatReportDestination = z.infer<typeof ChatReportDestination>;

export const SaveChatReportInput = z
  .strictObject({ name: Name, destination: ChatReportDestination.default({ kind: "personal" }) })
  .meta({ id: "SaveChatReportInput" });
export type SaveChatReportInput = z.infer<typeof SaveChatReportInput>;

const PathEntry = z.object({ id: z.number().int(), name: z.string() });

/** Whether the caller may save answers as reports here, and where (folders and workbooks they can edit). */
export const ChatReportDestinations = z
  .object({
    allowed: z.boolean(),
    /** Why saving is not allowed (shown to nobody by default; for integrators). */
    reason: z.string().optional(),
    folders: z.array(z.object({ id: z.number().int(), name: z.string(), path: z.array(PathEntry) })),
    workbooks: z.array(z.object({ id: z.number().int(), name: z.string(), path: z.array(PathEntry) })),
  })
  .meta({ id: "ChatReportDestinations" });
export type ChatReportDestinations = z.infer<typeof ChatReportDestinations>;

/** A saved answer: the new report, the workbook holding it, and where that is. */
export const SavedChatReport = z
  .object({
    report: z.object({ id: z.number().int(), publicId: z.string(), name: z.string() }),
    workbook: z.object({ id: z.number().int(), name: z.string(), created: z.boolean() }),
    /** The folders above the workbook, root first; empty in the personal space. */
    folderPath: z.array(PathEntry),
    /** The report's path in the app (decisions.md "Creator mode"). */
    appPath: z.string(),
  })
  .meta({ id: "SavedChatReport" });
export type SavedChatReport = z.infer<typeof SavedChatReport>;
