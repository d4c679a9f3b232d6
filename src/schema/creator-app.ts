import { z } from "zod";
import { acceptingReadBack, Id, Name, SafeJsonObject } from "./common";
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
export type CreateAppReportInput = z.infer<typeof CreateAppReportInput>;

/** A published dashboard the caller may open, offered on the app's home to start from. */
export const StartingDashboard = z.object({ publicId: z.string(), title: z.string() }).meta({ id: "AppStartingDashboard" });
export type StartingDashboard = z.infer<typeof StartingDashboard>;

export const AppStartingPoints = z
  .object({ dashboards: z.array(StartingDashboard).meta({ description: "Published dashboards of others the caller may open, newest first (at most 20)." }) })
  .meta({ id: "AppStartingPoints" });
export type AppStartingPoints = z.infer<typeof AppStartingPoints>;

export const CopyDashboardInput = z
  .object({
    name: Name.optional(),
    folderId: Id.nullable().optional().meta({ description: "A folder the caller may edit; the personal root when absent." }),
  })
  .strict()
  .meta({ id: "CopyDashboardInput" });
export type CopyDashboardInput = z.infer<typeof CopyDashboardInput>;
