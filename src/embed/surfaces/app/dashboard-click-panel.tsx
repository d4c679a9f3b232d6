/**
 * What a click on a chart widget does (`config.click`): drill down (the default), open another
 * workbook's published dashboard with the clicked value as its filter, or send the host page
 * `svc:event:widget-click` under a name the creator gives.
 */
import { useId, useState } from "react";
import { CLICK_EVENT_NAME, clickBehaviourOf, WidgetClickBehaviour, type WidgetClickAction } from "../../../schema/dashboard-wiring";
import type { DashboardWidget } from "../../../schema/dashboard";
import { useAppText } from "./app-messages";
import "./dashboard-wiring.css";
import { useLinkedDashboard, useLinkTargets } from "./use-link-targets";
import { useModelDimensions } from "./use-model-dimensions";

const ACTIONS: { action: WidgetClickAction; key: "clickDrill" | "clickLink" | "clickEvent" }[] = [
  { action: "drill", key: "clickDrill" },
  { action: "link", key: "clickLink" },
  { action: "event", key: "clickEvent" },
];

export function ClickPanel(props: { widget: DashboardWidget; workbookId: number | null; dimensions: string[]; set(patch: Record<string, unknown>): void }) {
  const t = useAppText();
  const name = useId();
  // A choice still being made (a link without its filter, an event without a valid name) stays
  // here; the widget keeps its last complete behaviour, so the draft always saves.
  const [pending, setPending] = useState<Record<string, unknown> | null>(null);
  const raw = pending ?? (clickBehaviourOf(props.widget.config) as Record<string, unknown>);
  const action = raw.action as WidgetClickAction;
  const setClick = (next: Record<string, unknown> | null) => {
    const parsed = WidgetClickBehaviour.safeParse(next ?? { action: "drill" });
    setPending(parsed.success ? null : next);
    if (parsed.success) props.set({ click: parsed.data.action === "drill" ? undefined : parsed.data });
  };
  return (
    <fieldset className="svc-app-click" data-testid="click-panel">
      <legend>{t("clickTitle")}</legend>
      {ACTIONS.map((a) => (
        <label key={a.action} className="svc-app-click-option">
          <input
            type="radio"
            name={name}
            checked={action === a.action}
            onChange={() => setClick(a.action === "drill" ? null : a.action === "event" ? { action: "event", name: "" } : { action: "link" })}
            data-testid={`click-${a.action}`}
          />
          <span>{t(a.key)}</span>
        </label>
      ))}
      {action === "link" ? <LinkSettings raw={raw} workbookId={props.workbookId} dimensions={props.dimensions} setClick={setClick} /> : null}
      {action === "event" ? (
        <label className="svc-app-field">
          <span>{t("clickEventName")}</span>
          <input
            className="svc-app-input"
            value={String(raw.name ?? "")}
            onChange={(e) => setClick({ action: "event", name: e.target.value })}
            aria-invalid={!CLICK_EVENT_NAME.test(String(raw.name ?? ""))}
            placeholder="open-customer"
            data-testid="click-event-name"
          />
          <small className={CLICK_EVENT_NAME.test(String(raw.name ?? "")) ? "svc-app-hint" : "svc-app-hint is-error"}>
            {CLICK_EVENT_NAME.test(String(raw.name ?? "")) ? t("clickEventHint") : t("clickEventInvalid")}
          </small>
        </label>
      ) : null}
    </fieldset>
  );
}

function LinkSettings(props: { raw: Record<string, unknown>; workbookId: number | null; dimensions: string[]; setClick(next: Record<string, unknown>): void }) {
  const t = useAppText();
  const { titleOf } = useModelDimensions();
  const targets = useLinkTargets(props.workbookId);
  const chosen = typeof props.raw.workbookId === "number" ? props.raw.workbookId : null;
  const linked = useLinkedDashboard(chosen);
  const update = (patch: Record<string, unknown>) => props.setClick({ ...props.raw, action: "link", ...patch });
  const filterMember = typeof props.raw.filterMember === "string" ? props.raw.filterMember : "";
  return (
    <>
      <label className="svc-app-field">
        <span>{t("clickDashboard")}</span>
        <select
          className="svc-app-input"
          value={chosen ?? ""}
          onChange={(e) => props.setClick({ action: "link", ...(e.target.value ? { workbookId: Number(e.target.value) } : {}) })}
          data-testid="click-link-dashboard"
        >
          <option value="">{t("dashChoose")}</option>
          {targets.map((w) => (
            <option key={w.workbookId} value={w.workbookId}>
              {w.name}
            </option>
          ))}
        </select>
      </label>
      {chosen !== null && !linked ? <p className="svc-app-hint">{t("clickLoading")}</p> : null}
      {linked && !linked.publicId ? <p className="svc-app-hint is-error">{t("clickNotPublished")}</p> : null}
      {linked?.publicId && linked.filterMembers.length === 0 ? <p className="svc-app-hint is-error">{t("clickNoFilters")}</p> : null}
      {linked?.publicId && linked.filterMembers.length > 0 ? (
        <>
          <label className="svc-app-field">
            <span>{t("clickTargetFilter")}</span>
            <select
              className="svc-app-input"
              value={filterMember}
              onChange={(e) => update({ dashboardPublicId: linked.publicId, filterMember: e.target.value || undefined })}
              data-testid="click-link-filter"
            >
              <option value="">{t("dashChoose")}</option>
              {linked.filterMembers.map((m) => (
                <option key={m} value={m}>
                  {titleOf(m)}
                </option>
              ))}
            </select>
          </label>
          <label className="svc-app-field">
            <span>{t("clickSourceColumn")}</span>
            <select
              className="svc-app-input"
              value={typeof props.raw.sourceMember === "string" ? props.raw.sourceMember : (props.dimensions[0] ?? "")}
              onChange={(e) => update({ dashboardPublicId: linked.publicId, sourceMember: e.target.value || undefined })}
              data-testid="click-link-source"
            >
              {props.dimensions.map((m) => (
                <option key={m} value={m}>
                  {titleOf(m)}
                </option>
              ))}
            </select>
          </label>
        </>
      ) : null}
    </>
  );
}
