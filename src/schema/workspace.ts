import { z } from "zod";
import { MAX_CALCULATED_FIELDS, WORKBOOK_FIELD_KEY, WorkbookCalculatedFields } from "./calculated-field";
import { acceptingReadBack, Id, Name, SafeJsonObject, SafeText, Timestamp } from "./common";
import { Workbook, WorkspaceItemType } from "./workbook";

/** Slugs: trimmed and lowercased first (spec 4.1 rule 1), then 1..100 of [a-z0-9_-], starting alphanumeric. */
export const SLUG_PATTERN = /^[a-z0-9][a-z0-9_-]{0,99}$/;
export const SLUG_RULE = "1 to 100 characters a-z, 0-9, '-' or '_', starting with a letter or digit";

/** The normalized slug (spec 4.1 rule 1): trimmed, lowercased. */
export function normalizeSlug(slug: string): string {
  return slug.trim().toLowerCase();
}

export const Slug = SafeText.max(1000)
  .transform(normalizeSlug)
  .pipe(z.string().regex(SLUG_PATTERN, `slug must be ${SLUG_RULE}`));

/** `PUT …/workbooks/{workbookId}`: only the fields sent change; `meta` is merged into the stored meta. */
export const UpdateWorkbookInput = acceptingReadBack(
  z
    .object({
      name: Name.nullable().optional(),
      folderId: Id.nullable().optional(),
      meta: SafeJsonObject.nullable().optional(),
      slug: Slug.nullable().optional().meta({ description: "New slug (normalized); null removes it." }),
      calculatedFields: WorkbookCalculatedFields.nullable().optional().meta({
        description:
          'The workbook\'s calculated fields, replaced whole: { "<view>.<name>": { formula, title?, format? } } (docs/data-model.md, "Calculated fields"); null clears them. Formulas are checked against the deployment\'s model when it has one.',
      }),
      calculatedFieldChanges: z
        .strictObject({
          set: WorkbookCalculatedFields.optional(),
          remove: z.array(z.string().regex(WORKBOOK_FIELD_KEY, "a key is <view>.<name> (identifiers)")).max(MAX_CALCULATED_FIELDS).optional(),
        })
        .optional()
        .meta({
          description:
            "Changes to the stored calculated fields, applied in one write: `remove` deletes keys, then `set` adds or replaces fields by key. Fields others wrote meanwhile are kept (calculatedFields replaces them all). Not sent together with calculatedFields.",
        }),
      slugTakeover: z
        .boolean()
        .optional()
        .meta({ description: "When the slug belongs to another workbook of the deployment, take it over (that workbook loses its slug)." }),
    })
    .strict(),
  Workbook,
  "UpdateWorkbookInput",
);
export type UpdateWorkbookInput = z.infer<typeof UpdateWorkbookInput>;

export const DuplicateWorkbookInput = z
  .object({
    shared: z.boolean().optional().meta({ description: "Clone from the shared workspace: the copy starts from the published dashboard and is marked shared." }),
    name: Name.optional(),
    folderId: Id.nullable().optional(),
  })
  .strict()
  .meta({ id: "DuplicateWorkbookInput" });
export type DuplicateWorkbookInput = z.infer<typeof DuplicateWorkbookInput>;

export const AiWidgetThreadInput = z
  .object({
    threadId: SafeText.trim().min(1).max(255),
    widgetId: SafeText.min(1).max(255),
    checksum: SafeText.max(128).optional().meta({ description: "Checksum of the published version the caller saw; a stale one is refused with 409." }),
  })
  .strict()
  .meta({ id: "AiWidgetThreadInput" });
export type AiWidgetThreadInput = z.infer<typeof AiWidgetThreadInput>;

export const MAX_BULK_ITEMS = 100;

export const WorkspaceItemRef = z.object({ type: WorkspaceItemType, id: Id }).strict().meta({ id: "WorkspaceItemRef" });
export type WorkspaceItemRef = z.infer<typeof WorkspaceItemRef>;

export const BulkDeleteInput = z
  .object({ items: z.array(WorkspaceItemRef).min(1).max(MAX_BULK_ITEMS) })
  .strict()
  .meta({ id: "WorkspaceBulkDeleteInput" });
export type BulkDeleteInput = z.infer<typeof BulkDeleteInput>;

export const BulkMoveInput = z
  .object({
    items: z.array(WorkspaceItemRef).min(1).max(MAX_BULK_ITEMS),
    targetFolderId: Id.nullable().meta({ description: "Destination folder; null is the root." }),
  })
  .strict()
  .meta({ id: "WorkspaceBulkMoveInput" });
export type BulkMoveInput = z.infer<typeof BulkMoveInput>;

export const BulkItemFailure = z
  .object({ type: WorkspaceItemType, id: z.number().int(), code: z.string(), message: z.string() })
  .meta({ id: "WorkspaceBulkItemFailure" });
export type BulkItemFailure = z.infer<typeof BulkItemFailure>;

/** Per-item outcome: what succeeded is kept even when other items fail. */
export const BulkResult = z.object({ succeeded: z.array(WorkspaceItemRef), failed: z.array(BulkItemFailure) }).meta({ id: "WorkspaceBulkResult" });
export type BulkResult = z.infer<typeof BulkResult>;

export const WorkspaceItem = z
  .object({
    type: WorkspaceItemType,
    id: z.number().int(),
    name: z.string(),
    folderId: z.number().int().nullable(),
    slug: z.string().nullable().optional(),
    publicId: z.string().nullable().optional(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: "WorkspaceItem" });
export type WorkspaceItem = z.infer<typeof WorkspaceItem>;
