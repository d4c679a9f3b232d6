import { z } from "zod";
import { Description, FreeFormObject, Id, LongText, Name, SafeJsonObject, SafeText, Timestamp, Title } from "./common";
import { FillMissingRows, PeriodComparison, ReportKind, ReportSnapshotPreferences } from "./dashboard";
import { WorkspaceFolderPathEntry } from "./workbook";

/** 12 characters [0-9A-Za-z] (decisions.md "Public ids"). */
export const PUBLIC_ID_PATTERN = /^[0-9A-Za-z]{12}$/;
export const PublicId = z.string().regex(PUBLIC_ID_PATTERN, "must be 12 characters [0-9A-Za-z]");

/** Spec 2.9: where a report's result is placed in a caller's spreadsheet. */
export const ReportPlacement = z
  .object({ workbookId: z.string(), resultLocation: z.string(), endResultCell: z.string().nullable() })
  .meta({ id: "ReportPlacement" });
export type ReportPlacement = z.infer<typeof ReportPlacement>;

/** A saved report: a semantic query (`query`) and a chart spec (`spec`). */
export const Report = z
  .object({
    id: z.number().int(),
    publicId: z.string(),
    deploymentId: z.number().int(),
    type: z.literal("REPORT"),
    folderId: z.number().int().nullable(),
    folderPath: z.array(WorkspaceFolderPathEntry),
    workbookId: z.number().int().nullable(),
    name: z.string(),
    title: z.string().nullable(),
    description: z.string().nullable(),
    kind: ReportKind.nullable(),
    query: FreeFormObject.nullable(),
    sqlQuery: z.string().nullable(),
    spec: z.union([z.string(), FreeFormObject]).nullable(),
    meta: FreeFormObject.nullable(),
    fillMissingRows: FillMissingRows.nullable(),
    periodComparisons: z.array(PeriodComparison).nullable(),
    preferences: ReportSnapshotPreferences.nullable(),
    externalWorkbookPlacements: z.array(ReportPlacement),
    versionNumber: z.number().int(),
    createdBy: z.number().int().nullable(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    lastViewedAt: Timestamp.nullable(),
    canEdit: z.boolean(),
    canManage: z.boolean(),
  })
  .meta({ id: "Report" });
export type Report = z.infer<typeof Report>;

/**
 * Body of `PUT …/reports/by-public-id/{publicId}`: every field optional; on update only the
 * fields sent change (`meta` is merged), on create `name` defaults to the public id.
 */
export const ReportInput = z
  .object({
    name: Name.optional(),
    title: Title.nullable().optional(),
    description: Description.nullable().optional(),
    kind: ReportKind.nullable().optional(),
    query: SafeJsonObject.nullable().optional(),
    sqlQuery: LongText.nullable().optional(),
    spec: z.union([LongText, SafeJsonObject]).nullable().optional(),
    meta: SafeJsonObject.nullable().optional(),
    fillMissingRows: FillMissingRows.nullable().optional(),
    periodComparisons: z.array(PeriodComparison).max(50).nullable().optional(),
    preferences: ReportSnapshotPreferences.nullable().optional(),
    folderId: Id.nullable().optional(),
    workbookId: Id.nullable().optional(),
  })
  .strict()
  .meta({ id: "ReportInput" });
export type ReportInput = z.infer<typeof ReportInput>;

export const ConnectWorkbookInput = z
  .object({
    externalWorkbookId: SafeText.trim().min(1).max(255),
    resultLocation: SafeText.trim().min(1).max(255),
    endResultCell: SafeText.max(255).nullable().optional(),
  })
  .strict()
  .meta({ id: "ConnectWorkbookInput" });
export type ConnectWorkbookInput = z.infer<typeof ConnectWorkbookInput>;

export const ReportSortBy = z.enum(["name", "createdAt", "updatedAt", "lastViewedAt"]);
export type ReportSortBy = z.infer<typeof ReportSortBy>;
