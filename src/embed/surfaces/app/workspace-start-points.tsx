/** The home's "Start from": a copy of a published dashboard (the demo's among them) or a template of one view. */
import { useState } from "react";
import { useAppText } from "./app-messages";
import { useStartingPoints } from "./use-starting-points";
import "./home-start.css";

export function StartingPoints() {
  const t = useAppText();
  const start = useStartingPoints(true);
  const [dashboard, setDashboard] = useState("");
  const [view, setView] = useState("");
  const picked = start.dashboards.find((d) => d.publicId === dashboard) ?? start.dashboards[0];
  const source = start.views.find((v) => v.name === view) ?? start.views[0];
  if (!picked && !source) return null;
  return (
    <section className="svc-app-section svc-app-start" aria-labelledby="svc-app-start-title" data-testid="home-start">
      <h2 className="svc-app-section-title" id="svc-app-start-title">
        {t("startTitle")}
      </h2>
      <div className="svc-app-start-options">
        {picked ? (
          <div className="svc-app-start-option" data-testid="start-copy">
            <h3>{t("startDemo")}</h3>
            <p className="svc-app-muted">{t("startDemoHint")}</p>
            <label className="svc-app-field">
              <span>{t("startDemoPick")}</span>
              <select className="svc-app-input" value={picked.publicId} onChange={(e) => setDashboard(e.target.value)} data-testid="start-copy-pick">
                {start.dashboards.map((d) => (
                  <option key={d.publicId} value={d.publicId}>
                    {d.title}
                  </option>
                ))}
              </select>
            </label>
            <button
              type="button"
              className="svc-button is-primary"
              disabled={start.busy !== null}
              onClick={() => void start.copy(picked.publicId)}
              data-testid="start-copy-go"
            >
              {t(start.busy === "copy" ? "startWorking" : "startCopy")}
            </button>
          </div>
        ) : null}
        {source ? (
          <div className="svc-app-start-option" data-testid="start-template">
            <h3>{t("startTemplate")}</h3>
            <p className="svc-app-muted">{t("startTemplateHint")}</p>
            <label className="svc-app-field">
              <span>{t("startTemplateView")}</span>
              <select className="svc-app-input" value={source.name} onChange={(e) => setView(e.target.value)} data-testid="start-template-view">
                {start.views.map((v) => (
                  <option key={v.name} value={v.name}>
                    {v.title}
                  </option>
                ))}
              </select>
            </label>
            <button
              type="button"
              className="svc-button"
              disabled={start.busy !== null}
              onClick={() => void start.fromTemplate(source)}
              data-testid="start-template-go"
            >
              {t(start.busy === "template" ? "startWorking" : "startCreate")}
            </button>
          </div>
        ) : null}
      </div>
    </section>
  );
}
