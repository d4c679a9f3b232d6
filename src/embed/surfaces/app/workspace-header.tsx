/** The workspace's header: the breadcrumb of a folder, the title, its hints and the create buttons. */
import { useApp } from "./app-context";
import type { WorkspaceActions } from "./use-workspace-actions";
import { useWorkspaceText } from "./workspace-text";

export function WorkspaceHeader(props: {
  folderId: number | null;
  /** The open folder's name and ancestors, once loaded. */
  folder: { name: string; folderPath: { id: number; name: string }[] } | undefined;
  actions: WorkspaceActions;
}) {
  const { go, me } = useApp();
  const { tx } = useWorkspaceText();
  const { folderId, folder, actions } = props;
  const title = folderId === null ? tx("home") : (folder?.name ?? tx("folder"));
  const path = folder?.folderPath ?? [];
  const inShared = folderId !== null && (folderId === me.sharedFolderId || path.some((p) => p.id === me.sharedFolderId));
  return (
    <header className="svc-app-header">
      <div className="svc-app-heading">
        {folderId !== null ? (
          <nav className="svc-app-crumbs" aria-label={tx("breadcrumb")}>
            <button type="button" className="svc-app-crumb" onClick={() => go({ kind: "home" })}>
              {tx("home")}
            </button>
            {path.map((p) => (
              <button key={p.id} type="button" className="svc-app-crumb" onClick={() => go({ kind: "folder", folderId: p.id })}>
                {p.name}
              </button>
            ))}
          </nav>
        ) : null}
        <h1 className="svc-app-title">{title}</h1>
        {folderId === null ? <p className="svc-app-muted">{me.embedTenant ? tx("subtitleIn", { tenant: me.embedTenant }) : tx("subtitle")}</p> : null}
        {inShared ? <p className="svc-app-muted">{tx("sharedFolderHint", { tenant: me.embedTenant ?? "" })}</p> : null}
      </div>
      {me.canCreate ? (
        <div className="svc-app-actions">
          <button type="button" className="svc-button" onClick={() => actions.setDialog({ kind: "create", type: "FOLDER" })} data-testid="new-folder">
            {tx("newFolder")}
          </button>
          <button
            type="button"
            className="svc-button is-primary"
            onClick={() => actions.setDialog({ kind: "create", type: "WORKBOOK" })}
            data-testid="new-workbook"
          >
            {tx("newWorkbook")}
          </button>
        </div>
      ) : null}
    </header>
  );
}
