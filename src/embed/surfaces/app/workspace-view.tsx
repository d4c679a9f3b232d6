/**
 * The workspace: home (recent, favourites, shared with me, the personal root) and folders with
 * sub-folders, workbooks and reports; search, sort, create, rename, move (drag onto a folder or
 * the move dialog), duplicate, delete with confirmation, and bulk move/delete with each item's
 * failure shown. Its parts are the workspace-*.tsx files beside it.
 */
import { useMemo, useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { SearchIcon } from "../../ui/icons";
import { FolderIcon } from "./app-icons";
import { useApp, messageOf } from "./app-context";
import { useWorkspaceActions } from "./use-workspace-actions";
import { WorkspaceDialogs } from "./workspace-dialogs";
import { WorkspaceHeader } from "./workspace-header";
import { HomeShelves } from "./workspace-home-shelves";
import { StartingPoints } from "./workspace-start-points";
import { keyOf, type WorkspaceSort } from "./workspace-item";
import { WorkspaceList } from "./workspace-list";
import { useWorkspaceText } from "./workspace-text";
import { appQueries } from "./app-queries";

// Other views open these dialogs too (the workbook's rename and share).
export { NameDialog } from "./workspace-name-dialog";
export { ShareDialog } from "./workspace-share-dialog";

export function WorkspaceView(props: { folderId: number | null }) {
  const { api, me } = useApp();
  const { tx } = useWorkspaceText();
  const { folderId } = props;
  const home = useQuery(appQueries.home(api));
  const items = useQuery(appQueries.list(api, folderId));
  const folder = useQuery(appQueries.folder(api, folderId));
  const [search, setSearch] = useState("");
  const searched = useQuery(appQueries.search(api, search.trim()));
  const [sort, setSort] = useState<WorkspaceSort>("type");
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const actions = useWorkspaceActions(folderId, () => setSelected(new Set()));
  const { busy, setDialog } = actions;

  const list = useMemo(() => {
    const source = search.trim() ? (searched.data ?? []) : (items.data ?? []);
    const out = [...source];
    if (sort === "name") out.sort((a, b) => a.name.localeCompare(b.name));
    if (sort === "updated") out.sort((a, b) => (a.updatedAt < b.updatedAt ? 1 : -1));
    return out;
  }, [items.data, searched.data, search, sort]);
  const selectedItems = list.filter((i) => selected.has(keyOf(i)));

  return (
    <main className="svc-app-page" data-testid={folderId === null ? "app-home" : "app-folder"} data-folder-id={folderId ?? ""}>
      <WorkspaceHeader folderId={folderId} folder={folder.data} actions={actions} />

      {folderId === null && home.data ? (
        <HomeShelves recent={home.data.recent} favorites={home.data.favorites} shared={home.data.shared} open={actions.open} />
      ) : null}
      {folderId === null && home.data?.me.canCreate ? <StartingPoints /> : null}

      <section className="svc-app-section" aria-label={folderId === null ? tx("myWorkspace") : tx("contents")}>
        <div className="svc-app-toolbar">
          <h2 className="svc-app-section-title">{folderId === null ? tx("myWorkspace") : tx("contents")}</h2>
          <input
            type="search"
            className="svc-app-input svc-app-search"
            placeholder={tx("searchEverything")}
            aria-label={tx("search")}
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            data-testid="workspace-search"
          />
          <label className="svc-app-sort">
            <span className="svc-visually-hidden">{tx("sort")}</span>
            <select
              className="svc-app-input"
              value={sort}
              onChange={(e) => setSort(e.target.value as WorkspaceSort)}
              aria-label={tx("sort")}
              data-testid="workspace-sort"
            >
              <option value="type">{tx("sortType")}</option>
              <option value="name">{tx("sortName")}</option>
              <option value="updated">{tx("sortUpdated")}</option>
            </select>
          </label>
        </div>

        {selectedItems.length ? (
          <div className="svc-app-bulkbar" role="toolbar" aria-label={tx("selection")} data-testid="bulk-bar">
            <span>{tx("selectedCount", { count: selectedItems.length })}</span>
            <button type="button" className="svc-button is-small" disabled={busy} onClick={() => setDialog({ kind: "move", items: selectedItems })}>
              {tx("move")}
            </button>
            <button type="button" className="svc-button is-small is-danger" disabled={busy} onClick={() => setDialog({ kind: "delete", items: selectedItems })}>
              {tx("delete")}
            </button>
            <button type="button" className="svc-button is-small" onClick={() => setSelected(new Set())}>
              {tx("clear")}
            </button>
          </div>
        ) : null}

        {items.isPending || (search.trim() && searched.isPending) ? (
          <div className="svc-app-skeleton" aria-busy="true" aria-label={tx("loading")}>
            <div />
            <div />
            <div />
          </div>
        ) : items.isError ? (
          <div className="svc-app-error" role="alert">
            {messageOf(items.error)}{" "}
            <button type="button" className="svc-button is-small" onClick={() => void items.refetch()}>
              {tx("retry")}
            </button>
          </div>
        ) : list.length === 0 ? (
          <div className="svc-app-empty" data-testid="workspace-empty">
            <div className="svc-app-empty-icon" aria-hidden="true">
              {search.trim() ? <SearchIcon size={28} /> : <FolderIcon size={28} />}
            </div>
            <h3>{search.trim() ? tx("nothingMatches") : tx("nothingHere")}</h3>
            <p>{search.trim() ? tx("tryAnother") : me.canCreate ? tx("createHint") : tx("sharedItemsHint")}</p>
          </div>
        ) : (
          <WorkspaceList list={list} selected={selected} onSelect={setSelected} actions={actions} />
        )}
      </section>

      <WorkspaceDialogs actions={actions} />
    </main>
  );
}
