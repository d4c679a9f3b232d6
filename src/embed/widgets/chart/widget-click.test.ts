import { describe, expect, it } from "vitest";
import { isSvcEvent, EVENT_TYPES, SVC_SOURCE } from "../../../protocol";
import { clickedDimensions, linkedDashboardPath, linkedValue, linkFilter, widgetClickPayload, type LinkClick } from "./widget-click";

const query = {
  measures: ["orders.count"],
  dimensions: ["orders.city", "orders.status"],
  timeDimensions: [{ dimension: "orders.created_at", granularity: "month" as const }],
};
const row = { "orders.city": "Oslo", "orders.status": null, "orders.created_at.month": "2025-01-01T00:00:00.000", "orders.count": 4 };
const link: LinkClick = { action: "link", dashboardPublicId: "dash_1", filterMember: "customers.city" };

describe("widget clicks", () => {
  it("a link passes the first dimension's value by default, or the chosen column's", () => {
    expect(linkedValue(link, row, query)).toBe("Oslo");
    expect(linkedValue({ ...link, sourceMember: "orders.status" }, row, query)).toBeNull();
    expect(linkedValue(link, row, { measures: ["orders.count"] })).toBeNull();
    expect(linkFilter(link, "Oslo")).toEqual({ member: "customers.city", operator: "equals", value: "Oslo" });
    expect(linkedDashboardPath({ ...link, dashboardPublicId: "a-b_c" })).toBe("/dashboard/a-b_c");
  });

  it("a host event carries the name, the measure and the row's dimensions, and passes the protocol's guard", () => {
    const payload = widgetClickPayload({ widgetId: "w1", behaviour: { action: "event", name: "open-city" }, member: "orders.count", value: 4, row, query });
    expect(payload).toEqual({
      name: "open-city",
      widgetId: "w1",
      member: "orders.count",
      value: 4,
      dimensions: { "orders.city": "Oslo", "orders.status": null, "orders.created_at.month": "2025-01-01T00:00:00.000" },
    });
    expect(isSvcEvent({ source: SVC_SOURCE, direction: "event", type: EVENT_TYPES.widgetClick, payload, timestamp: 1, surface: "dashboard" })).toBe(true);
    expect(clickedDimensions({ "orders.city": { x: 1 } }, { dimensions: ["orders.city"] })).toEqual({ "orders.city": null });
  });
});
