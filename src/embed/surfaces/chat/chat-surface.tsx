/**
 * Analytics chat at /embed/chat: the views of the deployment's data model (what one can ask
 * about) and a clear notice while AI is not configured on the platform.
 */
import { useSvcPlatformApiQuery } from "../../../client/react-query";
import { CubeIcon, SparkIcon } from "../../ui/icons";
import { useEmbedServices, useEmbedSession } from "../../shell/embed-context";
import { SurfaceLoadScreen, useSurfaceQuery } from "../../shell/surface-load";
import { t } from "../../i18n";
import { useEmbedStore } from "../../state/use-embed-store";
import { useSurfaceReadyAndView } from "../surface-events";
import "../../ui/buttons.css";
import "../../ui/chip.css";
import "../../ui/empty.css";
import "../../ui/page.css";
import "./chat-surface.css";

export function ChatSurface() {
  const { urlParameters } = useEmbedServices();
  const { auth } = useEmbedSession();
  const locale = useEmbedStore((s) => s.locale);
  const deploymentId = auth.mode === "signed" ? auth.deploymentId : Number(new URLSearchParams(window.location.search).get("deploymentId"));
  const valid = Number.isInteger(deploymentId) && deploymentId > 0;
  const query = useSvcPlatformApiQuery(
    "get",
    "/api/v1/deployments/{deploymentId}/meta",
    { params: { path: { deploymentId } } },
    { enabled: valid },
  );
  const [load, reload] = useSurfaceQuery(query, valid ? null : { message: "No deployment given" });
  useSurfaceReadyAndView(load.status === "ready", valid ? deploymentId : null, t(locale, "chat.title"));
  if (load.status !== "ready") return <SurfaceLoadScreen state={load} onReload={reload} />;
  // What one can ask about: the model's views (its cubes when it has none).
  const sources = load.data.sources;
  const views = sources.some((s) => s.kind === "view") ? sources.filter((s) => s.kind === "view") : sources;
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
