/**
 * The dashboard editor's wiring mode (like "wire this filter to cards"): a bar over the canvas
 * naming the filter being wired, and on each widget of the canvas an overlay with an on/off
 * switch and the column of its report the filter applies to, or why it is not connected; the
 * charts inside tab containers get the same switch in a list under the bar.
 */
import type { DashboardWidget } from "../../../schema/dashboard";
import { useAppText } from "./app-messages";
import "./dashboard-wiring.css";
import type { FilterWiringEditor } from "./use-filter-wiring-editor";
import type { ModelDimensions } from "./use-model-dimensions";

/** A chart inside a tab container: the canvas shows its container, so the bar lists it. */
export interface TabChart {
  widgetId: string;
  /** "Tab › Chart" */
  label: string;
}

export function WiringBar(props: { editor: FilterWiringEditor | null; onDone(): void; inTabs?: readonly TabChart[]; dimensions?: ModelDimensions }) {
  const t = useAppText();
  const { editor, dimensions } = props;
  const inTabs = editor && dimensions ? (props.inTabs ?? []).filter((c) => editor.rowOf(c.widgetId)) : [];
  const connected = editor?.rows.filter((r) => r.connected).length ?? 0;
  return (
    <div className="svc-app-wiring-bar" role="region" aria-label={t("wireConnect")} data-testid="wiring-bar">
      <div className="svc-app-wiring-text">
        <strong>{editor ? t("wireTitle", { filter: editor.label }) : t("wireConnect")}</strong>
        <span>{editor ? t("wireHint") : t("wireNeedsMember")}</span>
      </div>
      {editor ? (
        <span className="svc-app-wiring-count" data-testid="wiring-count">
          {t("wireCount", { count: connected, total: editor.rows.length })} · {t(editor.custom ? "wireCustom" : "wireDefault")}
        </span>
      ) : null}
      <div className="svc-app-wiring-actions">
        {editor?.custom ? (
          <button type="button" className="svc-button is-small" onClick={editor.reset} data-testid="wiring-reset">
            {t("wireReset")}
          </button>
        ) : null}
        <button type="button" className="svc-button is-primary is-small" onClick={props.onDone} data-testid="wiring-done">
          {t("wireDone")}
        </button>
      </div>
      {inTabs.length > 0 ? (
        <section className="svc-app-wiring-tabs" aria-label={t("wireInTabs")} data-testid="wiring-in-tabs">
          <h4>{t("wireInTabs")}</h4>
          <ul>
            {inTabs.map((c) => (
              <li key={c.widgetId} data-testid={`wire-${c.widgetId}`} data-connected={editor!.rowOf(c.widgetId)!.connected}>
                <p className="svc-app-wiring-tab-chart">{c.label}</p>
                <WiringCard widgetId={c.widgetId} editor={editor!} dimensions={dimensions!} />
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}

const REASON = { noReport: "wireNoReport", noMember: "wireNoMember", off: "wireOff" } as const;

export function WiringOverlay(props: { widget: DashboardWidget; editor: FilterWiringEditor; dimensions: ModelDimensions }) {
  const { widget, editor, dimensions } = props;
  const row = editor.rowOf(widget.id);
  // The filter being connected stays as it is; widgets a filter cannot drive are dimmed.
  if (!row) return widget.id === editor.widgetId ? null : <div className="svc-app-wire is-inert" aria-hidden="true" />;
  return (
    <div className={row.connected ? "svc-app-wire is-on" : "svc-app-wire is-off"} data-testid={`wire-${widget.id}`} data-connected={row.connected}>
      <WiringCard widgetId={widget.id} editor={editor} dimensions={dimensions} />
    </div>
  );
}

/** A chart's switch and the column the filter drives, or why it is not connected. */
function WiringCard(props: { widgetId: string; editor: FilterWiringEditor; dimensions: ModelDimensions }) {
  const t = useAppText();
  const { widgetId, editor, dimensions } = props;
  const row = editor.rowOf(widgetId)!;
  const switchId = `wire-${widgetId}-on`;
  return (
    <>
      <div className="svc-app-wire-card">
        <label className="svc-app-wire-switch" htmlFor={switchId}>
          <input
            id={switchId}
            type="checkbox"
            role="switch"
            checked={row.connected}
            disabled={row.options.length === 0}
            onChange={(e) => editor.connect(widgetId, e.target.checked)}
            data-testid={`wire-${widgetId}-switch`}
          />
          <span>{t("wireFilteredBy", { filter: editor.label })}</span>
        </label>
        {row.connected ? (
          <label className="svc-app-field is-compact">
            <span>{t("wireColumn")}</span>
            <select
              className="svc-app-input"
              value={row.member ?? ""}
              onChange={(e) => editor.setMember(widgetId, e.target.value)}
              data-testid={`wire-${widgetId}-member`}
            >
              {row.options.map((m) => (
                <option key={m} value={m}>
                  {dimensions.titleOf(m)}
                </option>
              ))}
            </select>
          </label>
        ) : (
          <p className="svc-app-wire-reason" data-testid={`wire-${widgetId}-reason`}>
            <strong>{t("wireNotConnected")}</strong> {t(REASON[row.reason ?? "off"], { member: dimensions.titleOf(editor.member) })}
          </p>
        )}
      </div>
    </>
  );
}
