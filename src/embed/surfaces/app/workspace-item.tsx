/** What the workspace's parts share about an item: its key, label, icon, and the open dialog. */
import type { ReactNode } from "react";
import type { WorkspaceItem } from "../../../schema/workspace";
import { ChartIcon, FolderIcon, WorkbookIcon } from "./app-icons";
import type { AppMessageKey } from "./app-messages";
import type { BulkResult } from "./app-api";

export type WorkspaceSort = "name" | "updated" | "type";

export const TYPE_LABEL: Record<WorkspaceItem["type"], AppMessageKey> = { FOLDER: "folder", WORKBOOK: "workbook", REPORT: "report" };
export const TYPE_ICON: Record<WorkspaceItem["type"], ReactNode> = { FOLDER: <FolderIcon />, WORKBOOK: <WorkbookIcon />, REPORT: <ChartIcon /> };
/** The rename dialog's title per type: a whole phrase, as languages inflect the noun differently. */
export const RENAME_TITLE: Record<WorkspaceItem["type"], AppMessageKey> = { FOLDER: "wsRenameFolder", WORKBOOK: "wsRenameWorkbook", REPORT: "wsRenameReport" };

export const keyOf = (i: { type: string; id: number }) => `${i.type}:${i.id}`;

/** A bulk operation of the workspace. */
export type BulkAction = "move" | "delete";

/** The dialog open over the workspace, if any. */
export type WorkspaceDialog =
  | { kind: "create"; type: "FOLDER" | "WORKBOOK" }
  | { kind: "rename"; item: WorkspaceItem }
  | { kind: "move"; items: WorkspaceItem[] }
  | { kind: "delete"; items: WorkspaceItem[] }
  | { kind: "share"; item: WorkspaceItem }
  | { kind: "failures"; action: BulkAction; result: BulkResult; items: WorkspaceItem[] }
  | null;
