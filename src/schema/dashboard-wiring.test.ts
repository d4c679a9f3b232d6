import { describe, expect, it } from "vitest";
import { DashboardConfig } from "./dashboard";
import { clickBehaviourOf, filterTargetsOf, WidgetClickBehaviour } from "./dashboard-wiring";

const at = { x: 0, y: 0, w: 3, h: 2 };
const parse = (widget: Record<string, unknown>) => DashboardConfig.safeParse({ widgets: [{ position: at, ...widget }] });

describe("FILTER config.targets", () => {
  it("accepts widget ids with members and returns them as given", () => {
    const config = { member: "sales.status", control: "values", targets: [{ widgetId: "chart-1", member: "orders.status" }] };
    const parsed = parse({ id: "f", type: "FILTER", config });
    expect(parsed.success).toBe(true);
    expect(parsed.data?.widgets?.[0]?.config).toEqual(config);
    expect(filterTargetsOf(config)).toEqual(config.targets);
  });

  it.each([
    ["a member without its view", [{ widgetId: "a", member: "status" }]],
    ["an unknown field", [{ widgetId: "a", member: "sales.status", extra: 1 }]],
    ["an empty widget id", [{ widgetId: "", member: "sales.status" }]],
    ["not a list", { a: "sales.status" }],
  ])("refuses %s with the path of the field", (_name, targets) => {
    const parsed = parse({ id: "f", type: "FILTER", config: { member: "sales.status", targets } });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.path.slice(0, 4)).toEqual(["widgets", 0, "config", "targets"]);
  });

  it("absent or null: the default wiring", () => {
    expect(filterTargetsOf({ member: "sales.status" })).toBeNull();
    expect(filterTargetsOf({ member: "sales.status", targets: null })).toBeNull();
    expect(filterTargetsOf({ member: "sales.status", targets: [] })).toEqual([]);
  });

  it("is not checked on other widget types", () => {
    expect(parse({ id: "t", type: "TEXT", config: { markdown: "x", targets: "whatever" } }).success).toBe(true);
  });
});

describe("CHART config.click", () => {
  it.each([
    { action: "drill" },
    { action: "link", dashboardPublicId: "dash_ab-1", workbookId: 4, filterMember: "sales.city", sourceMember: "orders.city" },
    { action: "link", dashboardPublicId: "x", filterMember: "sales.city" },
    { action: "event", name: "open-customer" },
  ])("accepts %j", (click) => {
    const parsed = parse({ id: "c", type: "CHART", config: { reportId: 1, click } });
    expect(parsed.success).toBe(true);
    expect(clickBehaviourOf({ click })).toEqual(click);
  });

  it.each([
    ["an unknown action", { action: "open" }],
    ["a link without a filter", { action: "link", dashboardPublicId: "x" }],
    ["a link to a path", { action: "link", dashboardPublicId: "../admin", filterMember: "sales.city" }],
    ["an event name with spaces", { action: "event", name: "open customer" }],
    ["an event name too long", { action: "event", name: "e".repeat(65) }],
  ])("refuses %s", (_name, click) => {
    const parsed = parse({ id: "c", type: "CHART", config: { reportId: 1, click } });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.path.slice(0, 4)).toEqual(["widgets", 0, "config", "click"]);
  });

  it("reads anything absent or malformed as the drilldown", () => {
    expect(clickBehaviourOf(null)).toEqual({ action: "drill" });
    expect(clickBehaviourOf({ click: { action: "event" } })).toEqual({ action: "drill" });
    expect(WidgetClickBehaviour.safeParse({ action: "drill", extra: true }).success).toBe(false);
  });
});
