/**
 * What the workspace does to its items (open, bulk move and delete, duplicate, create, rename)
 * with the dialog open over it and the notices each outcome gives, in the session locale.
 */
import { useState } from "react";
import type { WorkspaceItem, WorkspaceItemRef } from "../../../schema/workspace";
import { useApp, messageOf } from "./app-context";
import type { BulkResult } from "./app-api";
import type { BulkAction, WorkspaceDialog } from "./workspace-item";
import { useWorkspaceText } from "./workspace-text";

export type WorkspaceActions = ReturnType<typeof useWorkspaceActions>;

export function useWorkspaceActions(folderId: number | null, clearSelection: () => void) {
  const { api, go, notify, refresh } = useApp();
  const { tx, count } = useWorkspaceText();
  const [dialog, setDialog] = useState<WorkspaceDialog>(null);
  const [busy, setBusy] = useState(false);

  const open = (item: WorkspaceItem) => {
    if (item.type === "FOLDER") go({ kind: "folder", folderId: item.id });
    else if (item.type === "WORKBOOK") go({ kind: "workbook", workbookId: item.id });
    else notify("error", tx("wsReportNotInWorkbook"));
  };

  async function runBulk(action: BulkAction, targets: WorkspaceItem[], act: (refs: WorkspaceItemRef[]) => Promise<BulkResult>) {
    setBusy(true);
    try {
      const result = await act(targets.map((i) => ({ type: i.type, id: i.id })));
      clearSelection();
      await refresh();
      if (result.failed.length) setDialog({ kind: "failures", action, result, items: targets });
      else {
        setDialog(null);
        notify("ok", count(action === "move" ? "wsMovedCount" : "wsDeletedCount", result.succeeded.length));
      }
      return result;
    } catch (error) {
      notify("error", tx(action === "move" ? "wsNotMoved" : "wsNotDeleted", { error: messageOf(error) }));
      return null;
    } finally {
      setBusy(false);
    }
  }

  return {
    dialog,
    setDialog,
    busy,
    open,
    moveTo: (targets: WorkspaceItem[], target: number | null) => runBulk("move", targets, (refs) => api.bulkMove(refs, target)),
    remove: (targets: WorkspaceItem[]) => runBulk("delete", targets, (refs) => api.bulkDelete(refs)),
    async duplicate(item: WorkspaceItem) {
      try {
        await api.duplicateWorkbook(item.id);
        await refresh();
        notify("ok", tx("wsDuplicated", { name: item.name }));
      } catch (error) {
        notify("error", tx("wsNotDuplicated", { error: messageOf(error) }));
      }
    },
    /** Creates a folder here, or a workbook here and opens it; a failure throws to the dialog. */
    async create(type: "FOLDER" | "WORKBOOK", name: string) {
      if (type === "FOLDER") {
        await api.createFolder(name, folderId);
        await refresh();
        notify("ok", tx("wsFolderCreated", { name }));
      } else {
        const wb = await api.createWorkbook(name, folderId);
        await refresh();
        go({ kind: "workbook", workbookId: wb.id });
      }
    },
    /** Renames an item; a failure throws to the dialog, which keeps the name as typed. */
    async rename(item: WorkspaceItem, name: string) {
      if (item.type === "FOLDER") await api.renameFolder(item.id, name);
      else if (item.type === "WORKBOOK") await api.renameWorkbook(item.id, name);
      else await api.renameReport(item.publicId ?? "", name);
      await refresh();
      notify("ok", tx("wsRenamedTo", { name }));
    },
  };
}
