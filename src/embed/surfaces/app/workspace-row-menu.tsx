/** A workspace row's menu: rename, move, duplicate (workbooks), share (signed sessions), delete. */
import { useState } from "react";
import type { WorkspaceItem } from "../../../schema/workspace";
import { MoreIcon } from "./app-icons";
import { useWorkspaceText } from "./workspace-text";

export function RowMenu(props: {
  item: WorkspaceItem;
  onRename(): void;
  onMove(): void;
  onDelete(): void;
  /** Null when the item cannot be shared from here. */
  onShare: (() => void) | null;
  /** Null when the item cannot be duplicated. */
  onDuplicate: (() => Promise<void>) | null;
}) {
  const { tx } = useWorkspaceText();
  const [open, setOpen] = useState(false);
  const pick = (fn: () => void) => () => {
    setOpen(false);
    fn();
  };
  return (
    <div className="svc-app-menu">
      <button
        type="button"
        className="svc-icon-button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-label={tx("wsActionsFor", { name: props.item.name })}
        onClick={() => setOpen((o) => !o)}
        data-testid="row-menu"
      >
        <MoreIcon />
      </button>
      {open ? (
        <div className="svc-app-menu-list" role="menu" onKeyDown={(e) => e.key === "Escape" && setOpen(false)}>
          <button type="button" role="menuitem" onClick={pick(props.onRename)} autoFocus>
            {tx("wsRename")}
          </button>
          <button type="button" role="menuitem" onClick={pick(props.onMove)}>
            {tx("wsMoveMenu")}
          </button>
          {props.onDuplicate ? (
            <button type="button" role="menuitem" onClick={pick(() => void props.onDuplicate?.())}>
              {tx("wsDuplicate")}
            </button>
          ) : null}
          {props.onShare ? (
            <button type="button" role="menuitem" onClick={pick(props.onShare)}>
              {tx("wsShareMenu")}
            </button>
          ) : null}
          <button type="button" role="menuitem" className="is-danger" onClick={pick(props.onDelete)}>
            {tx("delete")}
          </button>
        </div>
      ) : null}
    </div>
  );
}
