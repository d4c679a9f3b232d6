import { describe, expect, it } from "vitest";
import type { DashboardWidget } from "../../../schema/dashboard";
import { filterMembersOf } from "./filter-config";

const at = { x: 0, y: 0, w: 4, h: 2 };
const filter = (id: string, member: unknown): DashboardWidget => ({ id, type: "FILTER", position: at, config: { member } });

describe("filterMembersOf", () => {
  it("names the members of the filter controls, those inside tabs too, and skips a control without a valid member", () => {
    const widgets: DashboardWidget[] = [
      filter("f1", "sales.status"),
      { id: "c", type: "CHART", position: at, config: { reportId: 1 } },
      { id: "t", type: "TABS_CONTAINER", position: at, config: { tabs: [{ id: "a", title: "A", widgets: [filter("f2", "sales.customers_country")] }] } },
      filter("f3", "not a member"),
    ];
    expect([...filterMembersOf(widgets)].sort()).toEqual(["sales.customers_country", "sales.status"]);
    expect(filterMembersOf(undefined).size).toBe(0);
  });
});
