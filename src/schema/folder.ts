import { z } from "zod";
import { acceptingReadBack, Id, Name, Timestamp } from "./common";
import { WorkspaceFolderPathEntry } from "./workbook";

/** A workspace folder of a deployment; folders nest (`parentId`), `folderPath` is the ancestor chain. */
export const Folder = z
  .object({
    id: z.number().int(),
    deploymentId: z.number().int(),
    parentId: z.number().int().nullable(),
    name: z.string(),
    type: z.literal("FOLDER"),
    folderPath: z.array(WorkspaceFolderPathEntry).meta({ description: "Ancestors of this folder, root first (the folder itself excluded)." }),
    createdBy: z.number().int().nullable(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    canEdit: z.boolean(),
    canManage: z.boolean(),
  })
  .meta({ id: "Folder" });
export type Folder = z.infer<typeof Folder>;

export const CreateFolderInput = z.object({ name: Name, parentId: Id.nullable().optional() }).strict().meta({ id: "CreateFolderInput" });
export type CreateFolderInput = z.infer<typeof CreateFolderInput>;

/** Only the fields sent change; `parentId: null` moves the folder to the root. */
export const UpdateFolderInput = acceptingReadBack(
  z.object({ name: Name.optional(), parentId: Id.nullable().optional() }).strict(),
  Folder,
  "UpdateFolderInput",
);
export type UpdateFolderInput = z.infer<typeof UpdateFolderInput>;
