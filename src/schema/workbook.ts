import { z } from "zod";
import { FreeFormObject, Id, Name, SafeJsonObject, Timestamp } from "./common";
import { Dashboard, DashboardConfig } from "./dashboard";

/** Spec 2.3. */
export const WorkspaceFolderPathEntry = z.object({ id: z.number().int(), name: z.string() }).meta({ id: "WorkspaceFolderPathEntry" });
export type WorkspaceFolderPathEntry = z.infer<typeof WorkspaceFolderPathEntry>;

/** Spec 2.4. */
export const ResourceOwner = z
  .object({
    id: z.number().int(),
    email: z.string(),
    firstName: z.string().nullable().optional(),
    picture: z.string().nullable().optional(),
  })
  .meta({ id: "ResourceOwner" });
export type ResourceOwner = z.infer<typeof ResourceOwner>;

/** Spec 2.1: every field optional and nullable; unknown fields are refused. The name follows the same rule as on update. */
export const CreateWorkbookInput = z
  .object({
    folderId: Id.nullable().optional(),
    meta: SafeJsonObject.nullable().optional(),
    name: Name.nullable().optional(),
  })
  .strict()
  .meta({ id: "CreateWorkbookInput" });
export type CreateWorkbookInput = z.infer<typeof CreateWorkbookInput>;

export const WorkspaceItemType = z.enum(["FOLDER", "WORKBOOK", "REPORT"]);
export type WorkspaceItemType = z.infer<typeof WorkspaceItemType>;

/** Spec 2.2. */
export const Workbook = z
  .object({
    id: z.number().int(),
    deploymentId: z.number().int(),
    name: z.string(),
    meta: FreeFormObject,
    calculatedFields: FreeFormObject.meta({
      description: 'Calculated fields: { "<view>.<name>": { formula, title?, format? } } (docs/data-model.md, "Calculated fields").',
    }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    type: WorkspaceItemType,
    slug: z.string().nullable().optional(),
    createdBy: z.number().int().optional(),
    userId: z.number().nullable().optional(),
    user: ResourceOwner.nullable().optional(),
    folderId: z.number().nullable().optional(),
    folderPath: z.array(WorkspaceFolderPathEntry).optional(),
    isFavorite: z.boolean().nullable().optional(),
    dashboardDraft: DashboardConfig.nullable().optional(),
    dashboardPublished: DashboardConfig.nullable().optional(),
    publishedDashboard: Dashboard.nullable().optional(),
  })
  .meta({ id: "Workbook" });
export type Workbook = z.infer<typeof Workbook>;
