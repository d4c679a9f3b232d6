import { z } from "zod";
import { acceptingReadBack, Name, SafeJsonObject } from "./common";
import { WorkspaceItem } from "./workspace";

/** Who the app is working for (the creator-mode app's home). */
export const AppMe = z
  .object({
    mode: z.enum(["signed", "private"]),
    displayName: z.string().nullable(),
    embedTenant: z.string().nullable(),
    role: z.enum(["viewer", "ai_bi_user", "developer", "admin"]),
    canCreate: z.boolean(),
    sharedFolderId: z.number().int().nullable().meta({ description: "The tenant's shared space (a root folder its creators edit); null in private mode." }),
    settings: z
      .record(z.string(), z.unknown())
      .meta({ description: "The session's settings and creator settings (showWorkbookShare, showDashboardSettings, showMemberNames, showWorkbookChat, …)." }),
  })
  .meta({ id: "AppMe" });
export type AppMe = z.infer<typeof AppMe>;

export const AppHome = z
  .object({
    me: AppMe,
    recent: z.array(WorkspaceItem),
    favorites: z.array(WorkspaceItem),
    shared: z.array(WorkspaceItem).meta({ description: "Items others shared with the caller's groups." }),
  })
  .meta({ id: "AppHome" });
export type AppHome = z.infer<typeof AppHome>;

export const AppSearchResponse = z.object({ items: z.array(WorkspaceItem) }).meta({ id: "AppSearchResponse" });

/** A group an embed creator may share with: their tenant's `all_embed_users` or one of its embed groups. Read only. */
export const ShareTarget = z
  .discriminatedUnion("kind", [z.object({ kind: z.literal("all_embed_users") }).strict(), z.object({ kind: z.literal("embed_group"), name: Name }).strict()])
  .meta({ id: "AppShareTarget" });
export type ShareTarget = z.infer<typeof ShareTarget>;

export const AppShares = z
  .object({
    shared: z.array(ShareTarget).meta({ description: "Where the object is shared now (read access)." }),
    available: z.array(z.object({ kind: z.literal("embed_group"), name: z.string(), displayName: z.string().nullable() })),
  })
  .meta({ id: "AppShares" });
export type AppShares = z.infer<typeof AppShares>;

export const SetAppSharesInput = acceptingReadBack(z.object({ shared: z.array(ShareTarget).max(100) }).strict(), AppShares, "SetAppSharesInput");

export const CreateAppReportInput = z
  .object({ name: Name.optional(), kind: z.enum(["vega", "table", "kpi"]).optional(), query: SafeJsonObject.optional() })
  .strict()
  .meta({ id: "CreateAppReportInput" });
