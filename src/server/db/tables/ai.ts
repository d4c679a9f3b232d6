/** Tables of the ai feature; re-exported by ../schema.ts so drizzle and the migrations see them. */
import { index, integer, jsonb, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";

/**
 * A chat thread belongs to one owner on one deployment: a platform user (`userId`) or an embed
 * user (`embedTenant` + `externalId`). Threads never cross tenants.
 */
export const chatThreads = pgTable(
  "chat_threads",
  {
    id: text("id").primaryKey(),
    deploymentId: integer("deployment_id").notNull(),
    ownerKey: text("owner_key").notNull(),
    userId: integer("user_id"),
    embedTenant: text("embed_tenant"),
    externalId: text("external_id"),
    title: text("title").notNull().default(""),
    /** The view the thread is about (`chatThreadPolicies` resources), when one is known. */
    viewName: text("view_name"),
    /**
     * Shared read-only with this audience, when shared: `embed:<tenant>` (the embed users of the
     * owner's tenant) or `platform` (the platform's users). Never wider than the owner's own.
     */
    shareScope: text("share_scope"),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [index("chat_threads_owner_idx").on(t.deploymentId, t.ownerKey, t.updatedAt)],
);

/** One message of a thread: the question (role `user`) or the answer (role `assistant`, its parts in `state`). */
export const chatMessages = pgTable(
  "chat_messages",
  {
    id: text("id").notNull(),
    threadId: text("thread_id").notNull(),
    role: text("role").$type<"user" | "assistant">().notNull(),
    content: text("content").notNull().default(""),
    /** `running` while the answer streams, then `completed` or `error`. */
    status: text("status").$type<"running" | "completed" | "error">().notNull().default("completed"),
    state: jsonb("state").$type<Record<string, unknown>>().notNull().default({}),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.threadId, t.id] }), index("chat_messages_thread_idx").on(t.threadId, t.createdAt)],
);

/** The AI widget's answers, cached by the checksum of its prompt, the dashboard's queries and the viewer's filters. */
export const aiWidgetAnswers = pgTable("ai_widget_answers", {
  key: text("key").primaryKey(),
  checksum: text("checksum").notNull(),
  markdown: text("markdown").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
});
