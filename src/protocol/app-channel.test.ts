import { describe, expect, it } from "vitest";
import { isAppConnectMessage, isAppMessage, isSurfaceMessage } from "./app-channel";

const S = { source: "svc-app" };

describe("isAppMessage", () => {
  it("accepts exactly the app's messages", () => {
    for (const m of [
      { ...S, type: "app:loaded" },
      { ...S, type: "app:query", requestId: "q1", reportId: 3 },
      { ...S, type: "app:python", requestId: "p1", reportId: 3 },
      { ...S, type: "app:set-filter", member: "sales.status", filter: { operator: "equals", value: ["completed", "shipped"] } },
      { ...S, type: "app:set-filter", member: "sales.status", filter: null },
      { ...S, type: "app:error", message: "boom", name: "AppError" },
      { ...S, type: "app:error", message: "x".repeat(500) },
      { ...S, type: "app:drilldown", member: "sales.count", value: "y".repeat(500) },
      { ...S, type: "app:drilldown", member: "sales.count", value: "Shipped" },
      { ...S, type: "app:drilldown", member: "sales.count" },
      { ...S, type: "app:size", height: 812 },
    ]) {
      expect(isAppMessage(m), JSON.stringify(m)).toBe(true);
    }
  });

  it("refuses other sources, unknown types, extra keys and bad fields", () => {
    for (const m of [
      null,
      "app:loaded",
      { source: "svc-embed", type: "app:loaded" },
      { ...S, type: "svc:event:drilldown", payload: { member: "sales.count" } },
      { ...S, type: "app:loaded", extra: 1 },
      { ...S, type: "app:query", requestId: "q1", reportId: "3" },
      { ...S, type: "app:query", requestId: "", reportId: 3 },
      { ...S, type: "app:query", requestId: "x".repeat(65), reportId: 3 },
      { ...S, type: "app:query", requestId: "q1", reportId: 1.5 },
      { ...S, type: "app:query", requestId: "q1", reportId: -1 },
      { ...S, type: "app:set-filter", member: "not a member", filter: null },
      { ...S, type: "app:set-filter", member: "sales.status", filter: { value: 1 } },
      { ...S, type: "app:set-filter", member: "sales.status", filter: { operator: "equals", value: [{}] } },
      { ...S, type: "app:error", message: "" },
      // What an app says to the host is bounded: 500 characters of error text or drilldown value.
      { ...S, type: "app:error", message: "x".repeat(501) },
      { ...S, type: "app:drilldown", member: "sales.count", value: "y".repeat(501) },
      { ...S, type: "app:drilldown", member: "sales.count", value: { nested: true } },
      { ...S, type: "app:size", height: -1 },
      { ...S, type: "app:size", height: Number.NaN },
      // The handshake is never a message over the port.
      { ...S, type: "app:connect" },
    ]) {
      expect(isAppMessage(m), JSON.stringify(m)).toBe(false);
    }
  });
});

describe("isSurfaceMessage", () => {
  it("knows the surface's types only", () => {
    expect(isSurfaceMessage({ ...S, type: "surface:context" })).toBe(true);
    expect(isSurfaceMessage({ ...S, type: "surface:result" })).toBe(true);
    expect(isSurfaceMessage({ ...S, type: "surface:preloaded" })).toBe(true);
    expect(isSurfaceMessage({ ...S, type: "app:loaded" })).toBe(false);
  });
});

describe("isAppConnectMessage", () => {
  it("is exactly the handshake", () => {
    expect(isAppConnectMessage({ ...S, type: "app:connect" })).toBe(true);
    for (const m of [
      null,
      "app:connect",
      { source: "svc-embed", type: "app:connect" },
      { ...S, type: "app:loaded" },
      { ...S, type: "app:connect", port: 1 },
      { type: "app:connect" },
    ]) {
      expect(isAppConnectMessage(m), JSON.stringify(m)).toBe(false);
    }
  });
});
