/**
 * The workspace's rows: select, open, drag onto a folder to move (the whole selection when the
 * dragged row is part of it), and each row's menu.
 */
import type { DragEvent } from "react";
import type { WorkspaceItem } from "../../../schema/workspace";
import { useApp } from "./app-context";
import type { WorkspaceActions } from "./use-workspace-actions";
import { keyOf, TYPE_ICON, TYPE_LABEL } from "./workspace-item";
import { RowMenu } from "./workspace-row-menu";
import { useWorkspaceText } from "./workspace-text";

export function WorkspaceList(props: { list: WorkspaceItem[]; selected: Set<string>; onSelect(next: Set<string>): void; actions: WorkspaceActions }) {
  const { me } = useApp();
  const { tx, day } = useWorkspaceText();
  const { list, selected, actions } = props;
  const { setDialog } = actions;

  const onDrop = (event: DragEvent, target: WorkspaceItem) => {
    event.preventDefault();
    if (target.type !== "FOLDER") return;
    const key = event.dataTransfer.getData("text/x-svc-item");
    const dragged = list.find((i) => keyOf(i) === key);
    if (!dragged || keyOf(dragged) === keyOf(target)) return;
    const moving = selected.has(key) ? list.filter((i) => selected.has(keyOf(i))) : [dragged];
    void actions.moveTo(
      moving.filter((i) => keyOf(i) !== keyOf(target)),
      target.id,
    );
  };

  return (
    <ul className="svc-app-list" data-testid="workspace-list">
      {list.map((item) => {
        const key = keyOf(item);
        return (
          <li
            key={key}
            className={selected.has(key) ? "svc-app-row is-selected" : "svc-app-row"}
            draggable
            onDragStart={(e) => e.dataTransfer.setData("text/x-svc-item", key)}
            onDragOver={(e) => item.type === "FOLDER" && e.preventDefault()}
            onDrop={(e) => onDrop(e, item)}
            data-testid={`item-${item.type.toLowerCase()}-${item.id}`}
            data-name={item.name}
          >
            <input
              type="checkbox"
              className="svc-app-check"
              aria-label={tx("select", { name: item.name })}
              checked={selected.has(key)}
              onChange={(e) => {
                const next = new Set(selected);
                if (e.target.checked) next.add(key);
                else next.delete(key);
                props.onSelect(next);
              }}
            />
            <button type="button" className="svc-app-row-main" onClick={() => actions.open(item)}>
              <span className="svc-app-row-icon" aria-hidden="true">
                {TYPE_ICON[item.type]}
              </span>
              <span className="svc-app-row-name">{item.name}</span>
              <span className="svc-app-row-type">{tx(TYPE_LABEL[item.type])}</span>
              <span className="svc-app-row-date">{day(item.updatedAt)}</span>
            </button>
            <RowMenu
              item={item}
              onRename={() => setDialog({ kind: "rename", item })}
              onMove={() => setDialog({ kind: "move", items: [item] })}
              onDelete={() => setDialog({ kind: "delete", items: [item] })}
              onShare={me.mode === "signed" && item.id !== me.sharedFolderId ? () => setDialog({ kind: "share", item }) : null}
              onDuplicate={item.type === "WORKBOOK" ? () => actions.duplicate(item) : null}
            />
          </li>
        );
      })}
    </ul>
  );
}
