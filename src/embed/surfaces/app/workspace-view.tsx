/**
 * The workspace: home (recent, favourites, shared with me, the personal root) and folders with
 * sub-folders, workbooks and reports; search, sort, create, rename, move (drag onto a folder or
 * the move dialog), duplicate, delete with confirmation, and bulk move/delete with each item's
 * failure shown.
 */
import { useMemo, useState, type DragEvent, type FormEvent, type ReactNode } from "react";
import { ChartIcon, FolderIcon, MoreIcon, WorkbookIcon } from "./app-icons";
import { SearchIcon } from "../../ui/icons";
import { useQuery } from "@tanstack/react-query";
import type { WorkspaceItem, WorkspaceItemRef } from "../../../schema/workspace";
import { useApp, messageOf } from "./app-context";
import { appText, useAppText, type AppMessageKey } from "./app-messages";
import type { BulkResult } from "./app-api";
import { Dialog } from "./dialog";

type Sort = "name" | "updated" | "type";
const TYPE_LABEL: Record<WorkspaceItem["type"], AppMessageKey> = { FOLDER: "folder", WORKBOOK: "workbook", REPORT: "report" };
const TYPE_ICON: Record<WorkspaceItem["type"], ReactNode> = { FOLDER: <FolderIcon />, WORKBOOK: <WorkbookIcon />, REPORT: <ChartIcon /> };
const keyOf = (i: { type: string; id: number }) => `${i.type}:${i.id}`;

export function WorkspaceView(props: { folderId: number | null }) {
  const { api, go, notify, refresh, me } = useApp();
  const tx = useAppText();
  const { folderId } = props;
  const home = useQuery({ queryKey: ["app", api.deploymentId, "home"], queryFn: () => api.home() });
  const items = useQuery({ queryKey: ["app", api.deploymentId, "list", folderId], queryFn: () => api.list(folderId) });
  const folder = useQuery({ queryKey: ["app", api.deploymentId, "folder", folderId], queryFn: () => api.folder(folderId!), enabled: folderId !== null });
  const [search, setSearch] = useState("");
  const searched = useQuery({
    queryKey: ["app", api.deploymentId, "search", search.trim()],
    queryFn: () => api.search(search.trim()),
    enabled: search.trim().length > 0,
  });
  const [sort, setSort] = useState<Sort>("type");
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [dialog, setDialog] = useState<
    | { kind: "create"; type: "FOLDER" | "WORKBOOK" }
    | { kind: "rename"; item: WorkspaceItem }
    | { kind: "move"; items: WorkspaceItem[] }
    | { kind: "delete"; items: WorkspaceItem[] }
    | { kind: "share"; item: WorkspaceItem }
    | { kind: "failures"; title: string; result: BulkResult; items: WorkspaceItem[] }
    | null
  >(null);
  const [busy, setBusy] = useState(false);

  const list = useMemo(() => {
    const source = search.trim() ? (searched.data ?? []) : (items.data ?? []);
    const out = [...source];
    if (sort === "name") out.sort((a, b) => a.name.localeCompare(b.name));
    if (sort === "updated") out.sort((a, b) => (a.updatedAt < b.updatedAt ? 1 : -1));
    return out;
  }, [items.data, searched.data, search, sort]);
  const selectedItems = list.filter((i) => selected.has(keyOf(i)));

  const open = (item: WorkspaceItem) => {
    if (item.type === "FOLDER") go({ kind: "folder", folderId: item.id });
    else if (item.type === "WORKBOOK") go({ kind: "workbook", workbookId: item.id });
    else notify("error", "This report is not part of a workbook you can open here.");
  };

  async function runBulk(title: string, targets: WorkspaceItem[], act: (refs: WorkspaceItemRef[]) => Promise<BulkResult>) {
    setBusy(true);
    try {
      const result = await act(targets.map((i) => ({ type: i.type, id: i.id })));
      setSelected(new Set());
      await refresh();
      if (result.failed.length) setDialog({ kind: "failures", title, result, items: targets });
      else {
        setDialog(null);
        notify("ok", `${title}: ${result.succeeded.length} item${result.succeeded.length === 1 ? "" : "s"}`);
      }
      return result;
    } catch (error) {
      notify("error", `${title} failed: ${messageOf(error)}`);
      return null;
    } finally {
      setBusy(false);
    }
  }

  const moveTo = (targets: WorkspaceItem[], target: number | null) => runBulk("Moved", targets, (refs) => api.bulkMove(refs, target));

  const onDrop = (event: DragEvent, target: WorkspaceItem) => {
    event.preventDefault();
    if (target.type !== "FOLDER") return;
    const key = event.dataTransfer.getData("text/x-svc-item");
    const dragged = list.find((i) => keyOf(i) === key);
    if (!dragged || keyOf(dragged) === keyOf(target)) return;
    const moving = selected.has(key) ? selectedItems : [dragged];
    void moveTo(
      moving.filter((i) => keyOf(i) !== keyOf(target)),
      target.id,
    );
  };

  const title = folderId === null ? tx("home") : (folder.data?.name ?? tx("folder"));
  const path = folder.data?.folderPath ?? [];
  const inShared = folderId !== null && (folderId === me.sharedFolderId || path.some((p) => p.id === me.sharedFolderId));

  return (
    <main className="svc-app-page" data-testid={folderId === null ? "app-home" : "app-folder"} data-folder-id={folderId ?? ""}>
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
            <button type="button" className="svc-button" onClick={() => setDialog({ kind: "create", type: "FOLDER" })} data-testid="new-folder">
              {tx("newFolder")}
            </button>
            <button type="button" className="svc-button is-primary" onClick={() => setDialog({ kind: "create", type: "WORKBOOK" })} data-testid="new-workbook">
              {tx("newWorkbook")}
            </button>
          </div>
        ) : null}
      </header>

      {folderId === null && home.data ? <HomeShelves recent={home.data.recent} favorites={home.data.favorites} shared={home.data.shared} open={open} /> : null}

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
              onChange={(e) => setSort(e.target.value as Sort)}
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
                      setSelected(next);
                    }}
                  />
                  <button type="button" className="svc-app-row-main" onClick={() => open(item)}>
                    <span className="svc-app-row-icon" aria-hidden="true">
                      {TYPE_ICON[item.type]}
                    </span>
                    <span className="svc-app-row-name">{item.name}</span>
                    <span className="svc-app-row-type">{tx(TYPE_LABEL[item.type])}</span>
                    <span className="svc-app-row-date">{new Date(item.updatedAt).toLocaleDateString()}</span>
                  </button>
                  <RowMenu
                    item={item}
                    onRename={() => setDialog({ kind: "rename", item })}
                    onMove={() => setDialog({ kind: "move", items: [item] })}
                    onDelete={() => setDialog({ kind: "delete", items: [item] })}
                    onShare={me.mode === "signed" && item.id !== me.sharedFolderId ? () => setDialog({ kind: "share", item }) : null}
                    onDuplicate={
                      item.type === "WORKBOOK"
                        ? async () => {
                            try {
                              await api.duplicateWorkbook(item.id);
                              await refresh();
                              notify("ok", `Duplicated ${item.name}`);
                            } catch (error) {
                              notify("error", `Could not duplicate: ${messageOf(error)}`);
                            }
                          }
                        : null
                    }
                  />
                </li>
              );
            })}
          </ul>
        )}
      </section>

      {dialog?.kind === "create" ? (
        <NameDialog
          title={dialog.type === "FOLDER" ? "New folder" : "New workbook"}
          initial=""
          action="Create"
          onClose={() => setDialog(null)}
          onSubmit={async (name) => {
            if (dialog.type === "FOLDER") {
              await api.createFolder(name, folderId);
              await refresh();
              notify("ok", `Created folder ${name}`);
            } else {
              const wb = await api.createWorkbook(name, folderId);
              await refresh();
              go({ kind: "workbook", workbookId: wb.id });
            }
          }}
        />
      ) : null}
      {dialog?.kind === "rename" ? (
        <NameDialog
          title={`Rename ${appText("en-US", TYPE_LABEL[dialog.item.type]).toLowerCase()}`}
          initial={dialog.item.name}
          action="Rename"
          onClose={() => setDialog(null)}
          onSubmit={async (name) => {
            const it = dialog.item;
            if (it.type === "FOLDER") await api.renameFolder(it.id, name);
            else if (it.type === "WORKBOOK") await api.renameWorkbook(it.id, name);
            else await api.renameReport(it.publicId ?? "", name);
            await refresh();
            notify("ok", `Renamed to ${name}`);
          }}
        />
      ) : null}
      {dialog?.kind === "move" ? (
        <MoveDialog items={dialog.items} onClose={() => setDialog(null)} onMove={(target) => void moveTo(dialog.items, target)} busy={busy} />
      ) : null}
      {dialog?.kind === "delete" ? (
        <Dialog title={dialog.items.length === 1 ? `Delete ${dialog.items[0]!.name}?` : `Delete ${dialog.items.length} items?`} onClose={() => setDialog(null)}>
          <p>
            {dialog.items.some((i) => i.type === "FOLDER") ? "Folders are deleted with everything in them. " : ""}
            This cannot be undone.
          </p>
          <div className="svc-app-dialog-actions">
            <button type="button" className="svc-button" onClick={() => setDialog(null)}>
              Cancel
            </button>
            <button
              type="button"
              className="svc-button is-danger"
              disabled={busy}
              data-testid="confirm-delete"
              onClick={() => void runBulk("Deleted", dialog.items, (refs) => api.bulkDelete(refs))}
            >
              {busy ? "Deleting…" : "Delete"}
            </button>
          </div>
        </Dialog>
      ) : null}
      {dialog?.kind === "failures" ? (
        <Dialog title={`${dialog.title}: ${dialog.result.succeeded.length} done, ${dialog.result.failed.length} failed`} onClose={() => setDialog(null)}>
          <ul className="svc-app-failures" data-testid="bulk-failures">
            {dialog.result.failed.map((f) => (
              <li key={keyOf(f)}>
                <strong>{dialog.items.find((i) => keyOf(i) === keyOf(f))?.name ?? `${f.type} ${f.id}`}</strong>: {f.message}
              </li>
            ))}
          </ul>
          <div className="svc-app-dialog-actions">
            <button type="button" className="svc-button is-primary" onClick={() => setDialog(null)}>
              OK
            </button>
          </div>
        </Dialog>
      ) : null}
      {dialog?.kind === "share" ? <ShareDialog item={dialog.item} onClose={() => setDialog(null)} /> : null}
    </main>
  );
}

function HomeShelves(props: { recent: WorkspaceItem[]; favorites: WorkspaceItem[]; shared: WorkspaceItem[]; open: (i: WorkspaceItem) => void }) {
  const tx = useAppText();
  const shelves: [string, string, WorkspaceItem[], string][] = [
    ["recent", tx("recent"), props.recent, tx("recentEmpty")],
    ["favorites", tx("favorites"), props.favorites, tx("favoritesEmpty")],
    ["shared", tx("sharedWithMe"), props.shared, tx("sharedEmpty")],
  ];
  return (
    <div className="svc-app-shelves">
      {shelves.map(([id, label, list, empty]) => (
        <section key={id} className="svc-app-shelf" aria-label={label} data-testid={`home-${id}`}>
          <h2 className="svc-app-section-title">{label}</h2>
          {list.length === 0 ? (
            <p className="svc-app-muted svc-app-shelf-empty">{empty}</p>
          ) : (
            <ul className="svc-app-cards">
              {list.slice(0, 6).map((item) => (
                <li key={keyOf(item)}>
                  <button type="button" className="svc-app-card" onClick={() => props.open(item)} data-name={item.name}>
                    <span className="svc-app-row-icon" aria-hidden="true">
                      {TYPE_ICON[item.type]}
                    </span>
                    <span className="svc-app-card-name">{item.name}</span>
                    <span className="svc-app-muted">{new Date(item.updatedAt).toLocaleDateString()}</span>
                  </button>
                </li>
              ))}
            </ul>
          )}
        </section>
      ))}
    </div>
  );
}

function RowMenu(props: {
  item: WorkspaceItem;
  onRename(): void;
  onMove(): void;
  onDelete(): void;
  onShare: (() => void) | null;
  onDuplicate: (() => Promise<void>) | null;
}) {
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
        aria-label={`Actions for ${props.item.name}`}
        onClick={() => setOpen((o) => !o)}
        data-testid="row-menu"
      >
        <MoreIcon />
      </button>
      {open ? (
        <div className="svc-app-menu-list" role="menu" onKeyDown={(e) => e.key === "Escape" && setOpen(false)}>
          <button type="button" role="menuitem" onClick={pick(props.onRename)} autoFocus>
            Rename
          </button>
          <button type="button" role="menuitem" onClick={pick(props.onMove)}>
            Move…
          </button>
          {props.onDuplicate ? (
            <button type="button" role="menuitem" onClick={pick(() => void props.onDuplicate?.())}>
              Duplicate
            </button>
          ) : null}
          {props.onShare ? (
            <button type="button" role="menuitem" onClick={pick(props.onShare)}>
              Share…
            </button>
          ) : null}
          <button type="button" role="menuitem" className="is-danger" onClick={pick(props.onDelete)}>
            Delete
          </button>
        </div>
      ) : null}
    </div>
  );
}

export function NameDialog(props: { title: string; initial: string; action: string; onClose(): void; onSubmit(name: string): Promise<void> }) {
  const [name, setName] = useState(props.initial);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!name.trim()) return setError("A name is needed.");
    setBusy(true);
    setError(null);
    try {
      await props.onSubmit(name.trim());
      props.onClose();
    } catch (err) {
      // The name stays as typed so nothing is lost.
      setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog title={props.title} onClose={props.onClose}>
      <form onSubmit={(e) => void submit(e)}>
        <label className="svc-app-field">
          <span>Name</span>
          <input className="svc-app-input" value={name} onChange={(e) => setName(e.target.value)} autoFocus maxLength={255} data-testid="name-input" />
        </label>
        {error ? (
          <p className="svc-app-error" role="alert">
            {error}
          </p>
        ) : null}
        <div className="svc-app-dialog-actions">
          <button type="button" className="svc-button" onClick={props.onClose}>
            Cancel
          </button>
          <button type="submit" className="svc-button is-primary" disabled={busy} data-testid="name-submit">
            {busy ? "Saving…" : props.action}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

function MoveDialog(props: { items: WorkspaceItem[]; busy: boolean; onClose(): void; onMove(target: number | null): void }) {
  const { api, me } = useApp();
  const [at, setAt] = useState<number | null>(null);
  const here = useQuery({ queryKey: ["app", api.deploymentId, "list", at], queryFn: () => api.list(at) });
  const folder = useQuery({ queryKey: ["app", api.deploymentId, "folder", at], queryFn: () => api.folder(at!), enabled: at !== null });
  const moving = new Set(props.items.map(keyOf));
  const folders = (here.data ?? []).filter((i) => i.type === "FOLDER" && !moving.has(keyOf(i)));
  return (
    <Dialog title={`Move ${props.items.length === 1 ? props.items[0]!.name : `${props.items.length} items`}`} onClose={props.onClose}>
      <nav className="svc-app-crumbs" aria-label="Destination">
        <button type="button" className="svc-app-crumb" onClick={() => setAt(null)}>
          Home
        </button>
        {(folder.data?.folderPath ?? []).concat(folder.data ? [{ id: folder.data.id, name: folder.data.name }] : []).map((p) => (
          <button key={p.id} type="button" className="svc-app-crumb" onClick={() => setAt(p.id)}>
            {p.name}
          </button>
        ))}
      </nav>
      <ul className="svc-app-move-list">
        {folders.length === 0 ? <li className="svc-app-muted">No folders here.</li> : null}
        {folders.map((f) => (
          <li key={f.id}>
            <button type="button" onClick={() => setAt(f.id)}>
              <FolderIcon /> {f.name}
              {f.id === me.sharedFolderId ? " (shared)" : ""}
            </button>
          </li>
        ))}
      </ul>
      <div className="svc-app-dialog-actions">
        <button type="button" className="svc-button" onClick={props.onClose}>
          Cancel
        </button>
        <button type="button" className="svc-button is-primary" disabled={props.busy} onClick={() => props.onMove(at)} data-testid="move-here">
          {props.busy ? "Moving…" : "Move here"}
        </button>
      </div>
    </Dialog>
  );
}

export function ShareDialog(props: { item: { type: WorkspaceItem["type"]; id: number; name: string }; onClose(): void }) {
  const { api, notify, me } = useApp();
  const type = props.item.type === "FOLDER" ? "folder" : props.item.type === "WORKBOOK" ? "workbook" : "report";
  const shares = useQuery({ queryKey: ["app", api.deploymentId, "shares", type, props.item.id], queryFn: () => api.shares(type, props.item.id), retry: false });
  const [busy, setBusy] = useState(false);
  const current = shares.data?.shared ?? [];
  const has = (k: string) => current.some((s) => (s.kind === "all_embed_users" ? k === "all" : k === `group:${s.name}`));
  const toggle = async (k: string) => {
    const next = has(k)
      ? current.filter((s) => (s.kind === "all_embed_users" ? k !== "all" : k !== `group:${s.name}`))
      : [...current, k === "all" ? { kind: "all_embed_users" as const } : { kind: "embed_group" as const, name: k.slice(6) }];
    setBusy(true);
    try {
      await api.setShares(type, props.item.id, next);
      await shares.refetch();
      notify("ok", "Sharing updated");
    } catch (error) {
      notify("error", `Could not share: ${messageOf(error)}`);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog title={`Share ${props.item.name}`} onClose={props.onClose}>
      <p className="svc-app-muted">People you share with can open it, not change it. Only people of {me.embedTenant ?? "your organization"} can be chosen.</p>
      {shares.isPending ? (
        <p aria-busy="true">Loading…</p>
      ) : shares.isError ? (
        <p className="svc-app-error" role="alert">
          {messageOf(shares.error)}
        </p>
      ) : (
        <ul className="svc-app-share-list" data-testid="share-list">
          <li>
            <label>
              <input type="checkbox" checked={has("all")} disabled={busy} onChange={() => void toggle("all")} data-testid="share-all" /> Everyone in{" "}
              {me.embedTenant}
            </label>
          </li>
          {shares.data.available.map((g) => (
            <li key={g.name}>
              <label>
                <input type="checkbox" checked={has(`group:${g.name}`)} disabled={busy} onChange={() => void toggle(`group:${g.name}`)} />{" "}
                {g.displayName ?? g.name}
              </label>
            </li>
          ))}
        </ul>
      )}
      <div className="svc-app-dialog-actions">
        <button type="button" className="svc-button is-primary" onClick={props.onClose}>
          Done
        </button>
      </div>
    </Dialog>
  );
}
