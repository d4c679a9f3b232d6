/** The dialog open over the workspace: create, rename, move, delete, failures or share. */
import type { WorkspaceActions } from "./use-workspace-actions";
import { DeleteDialog, FailuresDialog } from "./workspace-delete-dialog";
import { RENAME_TITLE } from "./workspace-item";
import { MoveDialog } from "./workspace-move-dialog";
import { NameDialog } from "./workspace-name-dialog";
import { ShareDialog } from "./workspace-share-dialog";
import { useWorkspaceText } from "./workspace-text";

export function WorkspaceDialogs(props: { actions: WorkspaceActions }) {
  const { dialog, setDialog, busy, create, rename, moveTo, remove } = props.actions;
  const { tx } = useWorkspaceText();
  const close = () => setDialog(null);
  switch (dialog?.kind) {
    case "create":
      return (
        <NameDialog
          title={tx(dialog.type === "FOLDER" ? "newFolder" : "newWorkbook")}
          initial=""
          action={tx("wsCreate")}
          onClose={close}
          onSubmit={(name) => create(dialog.type, name)}
        />
      );
    case "rename":
      return (
        <NameDialog
          title={tx(RENAME_TITLE[dialog.item.type])}
          initial={dialog.item.name}
          action={tx("wsRename")}
          onClose={close}
          onSubmit={(name) => rename(dialog.item, name)}
        />
      );
    case "move":
      return <MoveDialog items={dialog.items} onClose={close} onMove={(target) => void moveTo(dialog.items, target)} busy={busy} />;
    case "delete":
      return <DeleteDialog items={dialog.items} busy={busy} onClose={close} onDelete={() => void remove(dialog.items)} />;
    case "failures":
      return <FailuresDialog action={dialog.action} result={dialog.result} items={dialog.items} onClose={close} />;
    case "share":
      return <ShareDialog item={dialog.item} onClose={close} />;
    default:
      return null;
  }
}
