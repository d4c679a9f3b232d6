/**
 * Analytics chat at /embed/chat: the views of the deployment's data model (what one can ask
 * about) and a clear notice while AI is not configured on the platform.
 */
import { ApiError } from "../../app/api";
import { CubeIcon, SparkIcon } from "../../app/icons";
import { useEmbedServices, useEmbedSession } from "../../app/embed-context";
import { fetchDeploymentMeta } from "../../app/platform-api";
import { SurfaceLoadScreen, useSurfaceLoad } from "../../app/surface-load";
import { t } from "../../i18n";
import { useEmbedStore } from "../../state/use-embed-store";
import { useSurfaceReadyAndView } from "../surface-events";

export function ChatSurface() {
  const { api, urlParameters } = useEmbedServices();
  const { auth } = useEmbedSession();
  const locale = useEmbedStore((s) => s.locale);
  const deploymentId = auth.mode === "signed" ? auth.deploymentId : Number(new URLSearchParams(window.location.search).get("deploymentId"));
  const [load, reload] = useSurfaceLoad(String(deploymentId), async (signal) => {
    if (!Number.isInteger(deploymentId) || deploymentId <= 0) throw new ApiError(404, "not_found", "No deployment given");
    return fetchDeploymentMeta(api, deploymentId, signal);
  });
  useSurfaceReadyAndView(load.status === "ready", Number.isInteger(deploymentId) && deploymentId > 0 ? deploymentId : null, t(locale, "chat.title"));
  if (load.status !== "ready") return <SurfaceLoadScreen state={load} onReload={reload} />;
  const views = load.data.views ?? load.data.cubes ?? [];
  const show = urlParameters.show;

  return (
    <main className="svc-page svc-chat" data-testid="chat-surface" data-mode={auth.mode}>
      <header className="svc-page-header">
        <h1 className="svc-page-title">{t(locale, "chat.title")}</h1>
      </header>
      <div className="svc-notice is-info" role="status" data-testid="chat-ai-unavailable">
        <SparkIcon size={18} />
        <p>{t(locale, "chat.notConfigured")}</p>
      </div>
      <section aria-labelledby="svc-chat-views">
        <h2 id="svc-chat-views" className="svc-section-title">
          {t(locale, "chat.views")}
        </h2>
        {views.length === 0 ? (
          <p className="svc-empty">{t(locale, "chat.noViews")}</p>
        ) : (
          <ul className="svc-card-grid">
            {views.map((view) => (
              <li key={view.name} className="svc-card" data-testid={`view-${view.name}`}>
                <div className="svc-card-icon">
                  <CubeIcon size={18} />
                </div>
                <div className="svc-card-body">
                  <h3 className="svc-card-title">{view.title ?? view.name}</h3>
                  {view.description ? <p className="svc-card-text">{view.description}</p> : null}
                  <p className="svc-card-meta">
                    {[...(view.measures ?? []).slice(0, 4), ...(view.dimensions ?? []).slice(0, 4)].map((m) => (
                      <span key={m.name} className="svc-chip">
                        {m.title ?? m.name.split(".").pop()}
                      </span>
                    ))}
                  </p>
                </div>
              </li>
            ))}
          </ul>
        )}
      </section>
      {show.showChatInput ? (
        <form className="svc-chat-input" onSubmit={(e) => e.preventDefault()} aria-disabled="true">
          <input type="text" disabled placeholder={t(locale, "ai.askQuestion")} aria-label={t(locale, "ai.askQuestion")} />
          <button type="submit" className="svc-button is-primary" disabled>
            {t(locale, "ai.ask")}
          </button>
        </form>
      ) : null}
    </main>
  );
}
