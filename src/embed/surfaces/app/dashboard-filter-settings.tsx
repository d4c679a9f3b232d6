/** A FILTER or TIME_GRAIN widget's settings: its member, a filter's label, and connecting the filter to widgets. */
import type { DashboardWidget } from "../../../schema/dashboard";
import { useAppText } from "./app-messages";
import { useModelDimensions } from "./use-model-dimensions";

export function FilterSettings(props: { widget: DashboardWidget; set(patch: Record<string, unknown>, options?: { typing?: boolean }): void; onWire?(): void }) {
  const t = useAppText();
  const { widget: w, set } = props;
  const cfg = (w.config ?? {}) as Record<string, unknown>;
  const { list: members } = useModelDimensions();
  const isFilter = w.type === "FILTER";
  return (
    <>
      <label className="svc-app-field">
        <span>{t(isFilter ? "dashFilterOn" : "dashTimeDimension")}</span>
        <select
          className="svc-app-input"
          value={String((isFilter ? cfg.member : cfg.dimension) ?? "")}
          onChange={(e) =>
            set(
              isFilter
                ? { member: e.target.value, control: members.find((m) => m.name === e.target.value)?.type === "time" ? "dateRange" : "values" }
                : { dimension: e.target.value },
            )
          }
          data-testid={isFilter ? "filter-member" : "grain-dimension"}
        >
          <option value="">{t("dashChoose")}</option>
          {members
            .filter((m) => (isFilter ? true : m.type === "time"))
            .map((m) => (
              <option key={m.name} value={m.name}>
                {m.title}
              </option>
            ))}
        </select>
      </label>
      {isFilter ? (
        <>
          <label className="svc-app-field">
            <span>{t("dashLabel")}</span>
            <input className="svc-app-input" value={String(cfg.label ?? "")} onChange={(e) => set({ label: e.target.value || null }, { typing: true })} />
          </label>
          {props.onWire ? (
            <button type="button" className="svc-button is-small svc-app-wire-open" onClick={props.onWire} disabled={!cfg.member} data-testid="wire-filter">
              {t("wireConnect")}
            </button>
          ) : null}
        </>
      ) : null}
    </>
  );
}
