/** The delete confirmation, and the dialog that lists each item a bulk move or delete failed on. */
import type { WorkspaceItem } from "../../../schema/workspace";
import type { BulkResult } from "./app-api";
import { Dialog } from "./dialog";
import { keyOf, TYPE_LABEL, type BulkAction } from "./workspace-item";
import { useWorkspaceText } from "./workspace-text";

export function DeleteDialog(props: { items: WorkspaceItem[]; busy: boolean; onClose(): void; onDelete(): void }) {
  const { tx, count } = useWorkspaceText();
  const { items } = props;
  const title = items.length === 1 ? tx("wsDeleteNamed", { name: items[0]!.name }) : count("wsDeleteCount", items.length);
  return (
    <Dialog title={title} onClose={props.onClose}>
      <p>
        {items.some((i) => i.type === "FOLDER") ? `${tx("wsDeleteFoldersHint")} ` : ""}
        {tx("wsCannotUndo")}
      </p>
      <div className="svc-app-dialog-actions">
        <button type="button" className="svc-button" onClick={props.onClose}>
          {tx("wsCancel")}
        </button>
        <button type="button" className="svc-button is-danger" disabled={props.busy} data-testid="confirm-delete" onClick={props.onDelete}>
          {props.busy ? tx("wsDeleting") : tx("delete")}
        </button>
      </div>
    </Dialog>
  );
}

export function FailuresDialog(props: { action: BulkAction; result: BulkResult; items: WorkspaceItem[]; onClose(): void }) {
  const { tx, count } = useWorkspaceText();
  const { failed, succeeded } = props.result;
  const move = props.action === "move";
  return (
    <Dialog title={count(move ? "wsMoveFailures" : "wsDeleteFailures", failed.length)} onClose={props.onClose}>
      {succeeded.length ? <p className="svc-app-muted">{count(move ? "wsMovedCount" : "wsDeletedCount", succeeded.length)}</p> : null}
      <ul className="svc-app-failures" data-testid="bulk-failures">
        {failed.map((f) => (
          <li key={keyOf(f)}>
            <strong>{props.items.find((i) => keyOf(i) === keyOf(f))?.name ?? `${tx(TYPE_LABEL[f.type])} ${f.id}`}</strong>: {f.message}
          </li>
        ))}
      </ul>
      <div className="svc-app-dialog-actions">
        <button type="button" className="svc-button is-primary" onClick={props.onClose}>
          {tx("wsOk")}
        </button>
      </div>
    </Dialog>
  );
}
