/**
 * The dashboard's filter wiring (widgets/query/filter-wiring.ts) for the widgets below: given
 * by the outermost grid from its widgets, so a tab's grid inside it keeps the dashboard's.
 */
import { createContext, useContext, useMemo, type ReactNode } from "react";
import type { DashboardWidget } from "../../schema/dashboard";
import { filterWiringOf, NO_WIRING, type FilterWiring } from "../widgets/query/filter-wiring";

const FilterWiringContext = createContext<FilterWiring | null>(null);

export function useFilterWiring(): FilterWiring {
  return useContext(FilterWiringContext) ?? NO_WIRING;
}

export function FilterWiringProvider(props: { widgets: readonly DashboardWidget[]; children: ReactNode }) {
  const outer = useContext(FilterWiringContext);
  const wiring = useMemo(() => (outer ? null : filterWiringOf(props.widgets)), [outer, props.widgets]);
  if (!wiring) return props.children;
  return <FilterWiringContext.Provider value={wiring}>{props.children}</FilterWiringContext.Provider>;
}
