/** The move dialog: walk the folders from home and move the items into the one shown. */
import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import type { WorkspaceItem } from "../../../schema/workspace";
import { FolderIcon } from "./app-icons";
import { useApp } from "./app-context";
import { Dialog } from "./dialog";
import { keyOf } from "./workspace-item";
import { useWorkspaceText } from "./workspace-text";
import { appQueries } from "./app-queries";

export function MoveDialog(props: { items: WorkspaceItem[]; busy: boolean; onClose(): void; onMove(target: number | null): void }) {
  const { api, me } = useApp();
  const { tx, count } = useWorkspaceText();
  const [at, setAt] = useState<number | null>(null);
  const here = useQuery(appQueries.list(api, at));
  const folder = useQuery(appQueries.folder(api, at));
  const moving = new Set(props.items.map(keyOf));
  const folders = (here.data ?? []).filter((i) => i.type === "FOLDER" && !moving.has(keyOf(i)));
  const title = props.items.length === 1 ? tx("wsMoveNamed", { name: props.items[0]!.name }) : count("wsMoveCount", props.items.length);
  return (
    <Dialog title={title} onClose={props.onClose}>
      <nav className="svc-app-crumbs" aria-label={tx("wsDestination")}>
        <button type="button" className="svc-app-crumb" onClick={() => setAt(null)}>
          {tx("home")}
        </button>
        {(folder.data?.folderPath ?? []).concat(folder.data ? [{ id: folder.data.id, name: folder.data.name }] : []).map((p) => (
          <button key={p.id} type="button" className="svc-app-crumb" onClick={() => setAt(p.id)}>
            {p.name}
          </button>
        ))}
      </nav>
      <ul className="svc-app-move-list">
        {folders.length === 0 ? <li className="svc-app-muted">{tx("wsNoFolders")}</li> : null}
        {folders.map((f) => (
          <li key={f.id}>
            <button type="button" onClick={() => setAt(f.id)}>
              <FolderIcon /> {f.id === me.sharedFolderId ? tx("wsSharedFolderName", { name: f.name }) : f.name}
            </button>
          </li>
        ))}
      </ul>
      <div className="svc-app-dialog-actions">
        <button type="button" className="svc-button" onClick={props.onClose}>
          {tx("wsCancel")}
        </button>
        <button type="button" className="svc-button is-primary" disabled={props.busy} onClick={() => props.onMove(at)} data-testid="move-here">
          {props.busy ? tx("wsMoving") : tx("wsMoveHere")}
        </button>
      </div>
    </Dialog>
  );
}
