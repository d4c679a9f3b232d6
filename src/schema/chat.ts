import { z } from "zod";
import { SafeText } from "./common";

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
    createdAt: z.string(),
    updatedAt: z.string(),
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
    createdAt: z.string(),
  })
  .meta({ id: "ChatMessage" });
export type ChatMessage = z.infer<typeof ChatMessage>;

export const ChatThreadWithMessages = ChatThread.extend({ messages: z.array(ChatMessage) }).meta({ id: "ChatThreadWithMessages" });

export const CreateChatThreadInput = z.strictObject({ title: SafeText.trim().max(200).optional() }).meta({ id: "CreateChatThreadInput" });

/** The dashboard a dashboard chat is about: its views and filters scope every query. */
export const ChatScope = z
  .strictObject({
    dashboardPublicId: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/),
    filterUrlParameters: z.array(SafeText.max(2000)).max(100).optional(),
  })
  .meta({ id: "ChatScope" });

export const PostChatMessageInput = z
  .strictObject({
    content: SafeText.trim().min(1).max(4000),
    messageId: ChatId.optional(),
    scope: ChatScope.optional(),
  })
  .meta({ id: "PostChatMessageInput" });
export type PostChatMessageInput = z.infer<typeof PostChatMessageInput>;
