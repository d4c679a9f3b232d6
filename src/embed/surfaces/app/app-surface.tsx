/**
 * Creator-mode app at /embed/d/:deploymentId/app/*: for now the deployment's workbooks with
 * their dashboards, and a clear empty state.
 */
import { useParams } from "react-router";
import { useSvcPlatformApiQuery } from "../../../client/react-query";
import { BookIcon } from "../../ui/icons";
import { useEmbedSession } from "../../shell/embed-context";
import { SurfaceLoadScreen, useSurfaceQuery } from "../../shell/surface-load";
import { formatDateTime, t } from "../../i18n";
import { useEmbedStore } from "../../state/use-embed-store";
import { useSurfaceReadyAndView } from "../surface-events";
import "../../ui/page.css";
import "./app-surface.css";

export function AppSurface() {
  const params = useParams();
  const { auth } = useEmbedSession();
  const locale = useEmbedStore((s) => s.locale);
  const timezone = useEmbedStore((s) => s.timezone);
  const deploymentId = Number(params.deploymentId);
  const valid = Number.isInteger(deploymentId) && deploymentId > 0;
  const query = useSvcPlatformApiQuery(
    "get",
    "/api/v1/deployments/{deploymentId}/workbooks",
    { params: { path: { deploymentId }, query: { first: 100 } } },
    { enabled: valid },
  );
  const [load, reload] = useSurfaceQuery(query, valid ? null : { message: "Unknown deployment" });
  useSurfaceReadyAndView(load.status === "ready", valid ? deploymentId : null, t(locale, "app.workbooks"));
  if (load.status !== "ready") return <SurfaceLoadScreen state={load} onReload={reload} />;
  // Lists fill `items` and, deprecated, `data`.
  const workbooks = load.data.items ?? load.data.data ?? [];

  return (
    <main className="svc-page" data-testid="app-surface" data-deployment-id={deploymentId} data-mode={auth.mode}>
      <header className="svc-page-header">
        <h1 className="svc-page-title">{t(locale, "app.workbooks")}</h1>
        <p className="svc-page-subtitle">{t(locale, "app.subtitle")}</p>
      </header>
      {workbooks.length === 0 ? (
        <div className="svc-empty-state" data-testid="app-empty">
          <div className="svc-empty-icon">
            <BookIcon size={24} />
          </div>
          <h2>{t(locale, "app.empty")}</h2>
          <p>{t(locale, "app.emptyHint")}</p>
        </div>
      ) : (
        <ul className="svc-card-list" aria-label={t(locale, "app.workbooks")}>
          {workbooks.map((workbook) => (
            <li key={workbook.id} className="svc-card" data-testid={`workbook-${workbook.id}`}>
              <div className="svc-card-icon">
                <BookIcon size={18} />
              </div>
              <div className="svc-card-body">
                <h2 className="svc-card-title">{workbook.name || workbook.slug || `#${workbook.id}`}</h2>
                <p className="svc-card-meta">
                  {workbook.slug ? <code>{workbook.slug}</code> : null}
                  {workbook.updatedAt ? <span>{formatDateTime(locale, timezone, workbook.updatedAt, { dateStyle: "medium" })}</span> : null}
                </p>
              </div>
            </li>
          ))}
        </ul>
      )}
    </main>
  );
}
