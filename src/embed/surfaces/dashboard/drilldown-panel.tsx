/** The drill-down panel is shared by the surfaces that show widgets (grid/drilldown-panel.tsx). */
export { DrilldownPanel } from "../../grid/drilldown-panel";
