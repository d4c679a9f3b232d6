/** The parts of a workbook's page: its heading and actions, its sheet tabs, and its dialogs. */
import { useApp, messageOf } from "./app-context";
import type { AppRoute, AppWorkbook } from "./app-api";
import type { Report } from "../../../schema/report";
import { NameDialog, ShareDialog } from "./workspace-view";
import { WorkbookChatPanel } from "./app-chat-slot";
import { ChartIcon, GridIcon, StarIcon } from "./app-icons";
import { useAppText } from "./app-messages";

export type WorkbookRoute = Extract<AppRoute, { kind: "workbook" | "report" | "dashboard" | "published" }>;
export type WorkbookDialog = "rename" | "share" | "new-report";

/** The workbook's name with its favourite star and crumbs, and its actions (chat, rename, share). */
export function WorkbookHeader(props: { workbook: AppWorkbook; canEdit: boolean; onDialog: (dialog: WorkbookDialog) => void }) {
  const tx = useAppText();
  const { api, go, notify, refresh, switches, me } = useApp();
  const wb = props.workbook;
  const workbookId = wb.id;
  const setDialog = props.onDialog;
  const canEdit = props.canEdit;
  const toggleFavorite = async () => {
    try {
      await api.favorite(workbookId, !wb.isFavorite);
      await refresh();
    } catch (error) {
      notify("error", messageOf(error));
    }
  };

  return (
    <header className="svc-app-header">
      <div className="svc-app-heading">
        {switches.showWorkbookBackButton ? (
          <nav className="svc-app-crumbs" aria-label={tx("breadcrumb")}>
            <button type="button" className="svc-app-crumb" onClick={() => go({ kind: "home" })}>
              {tx("home")}
            </button>
            {(wb.folderPath ?? []).map((p) => (
              <button key={p.id} type="button" className="svc-app-crumb" onClick={() => go({ kind: "folder", folderId: p.id })}>
                {p.name}
              </button>
            ))}
          </nav>
        ) : null}
        <h1 className="svc-app-title">
          {wb.name}
          <button
            type="button"
            className={wb.isFavorite ? "svc-app-star is-on" : "svc-app-star"}
            aria-pressed={!!wb.isFavorite}
            aria-label={wb.isFavorite ? tx("wbFavoriteRemove") : tx("wbFavoriteAdd")}
            onClick={() => void toggleFavorite()}
            data-testid="favorite"
          >
            <StarIcon filled={!!wb.isFavorite} />
          </button>
        </h1>
      </div>
      <div className="svc-app-actions">
        {switches.showWorkbookChat ? <WorkbookChatPanel workbookId={workbookId} canEdit={canEdit} /> : null}
        <button type="button" className="svc-button" onClick={() => setDialog("rename")}>
          {tx("wbRename")}
        </button>
        {me.mode === "signed" && switches.showWorkbookShare ? (
          <button type="button" className="svc-button" onClick={() => setDialog("share")} data-testid="share-workbook">
            {tx("wbShare")}
          </button>
        ) : null}
      </div>
    </header>
  );
}

/** The sheet tabs: one per report, a new one, the dashboard and the published view. */
export function WorkbookTabs(props: { route: WorkbookRoute; reports: Report[]; canEdit: boolean; onNewReport: () => void }) {
  const tx = useAppText();
  const { go } = useApp();
  const { route, reports: list, canEdit } = props;
  const { workbookId } = route;
  const current = route.kind === "report" ? list.find((r) => r.id === route.reportId) : undefined;
  return (
    <div className="svc-app-tabs" role="tablist" aria-label={tx("wbSheets")}>
      {list.map((r) => (
        <button
          key={r.id}
          type="button"
          role="tab"
          aria-selected={current?.id === r.id}
          className={current?.id === r.id ? "svc-app-tab is-active" : "svc-app-tab"}
          onClick={() => go({ kind: "report", workbookId, reportId: r.id })}
          data-testid={`sheet-${r.id}`}
        >
          <ChartIcon size={14} /> {r.name}
        </button>
      ))}
      {canEdit ? (
        <button type="button" className="svc-app-tab is-add" onClick={props.onNewReport} data-testid="new-report">
          {tx("wbAddReport")}
        </button>
      ) : null}
      <span className="svc-app-tabs-spacer" />
      <button
        type="button"
        role="tab"
        aria-selected={route.kind === "dashboard"}
        className={route.kind === "dashboard" ? "svc-app-tab is-active" : "svc-app-tab"}
        onClick={() => go({ kind: "dashboard", workbookId })}
        data-testid="tab-dashboard"
      >
        <GridIcon size={14} /> {tx("wbDashboard")}
      </button>
      <button
        type="button"
        role="tab"
        aria-selected={route.kind === "published"}
        className={route.kind === "published" ? "svc-app-tab is-active" : "svc-app-tab"}
        onClick={() => go({ kind: "published", workbookId })}
        data-testid="tab-published"
      >
        {tx("wbPublished")}
      </button>
    </div>
  );
}

/** The workbook's dialogs: rename, a new report, share. */
export function WorkbookDialogs(props: { open: WorkbookDialog | null; workbook: AppWorkbook; onClose: () => void }) {
  const tx = useAppText();
  const { api, go, refresh } = useApp();
  const wb = props.workbook;
  const workbookId = wb.id;
  const dialog = props.open;
  return (
    <>
      {dialog === "rename" ? (
        <NameDialog
          title={tx("wbRenameTitle")}
          initial={wb.name}
          action={tx("wbRename")}
          onClose={props.onClose}
          onSubmit={async (name) => {
            await api.renameWorkbook(workbookId, name);
            await refresh();
          }}
        />
      ) : null}
      {dialog === "new-report" ? (
        <NameDialog
          title={tx("wbNewReport")}
          initial=""
          action={tx("wbCreate")}
          onClose={props.onClose}
          onSubmit={async (name) => {
            const report = await api.createReport(workbookId, name);
            await refresh();
            go({ kind: "report", workbookId, reportId: report.id });
          }}
        />
      ) : null}
      {dialog === "share" ? <ShareDialog item={{ type: "WORKBOOK", id: workbookId, name: wb.name }} onClose={props.onClose} /> : null}
    </>
  );
}
