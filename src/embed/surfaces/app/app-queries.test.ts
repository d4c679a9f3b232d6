import { QueryClient } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import type { AppApi } from "./app-api";
import { appKeys, appQueries } from "./app-queries";

const api = (deploymentId: number) => ({ deploymentId }) as Pick<AppApi, "deploymentId"> as AppApi;

/** One query of each resource of the app for a deployment (the functions are never called). */
const everyQuery = (d: number) => [
  appQueries.home(api(d)),
  appQueries.config(api(d)),
  appQueries.meta(api(d), "en-US"),
  appQueries.meta(api(d), "de-DE"),
  appQueries.list(api(d), null),
  appQueries.list(api(d), 4),
  appQueries.folder(api(d), 4),
  appQueries.search(api(d), "sales"),
  appQueries.workbook(api(d), 3),
  appQueries.reports(api(d), 3),
  appQueries.startingPoints(api(d), "en-US"),
  appQueries.shares(api(d), "workbook", 3),
  appQueries.values(api(d), "orders.status"),
  appQueries.sql(api(d), { measures: ["orders.count"] }),
];

describe("the app's query keys", () => {
  it("are one per resource and argument, and a refresh of a deployment marks every one of its reads stale and no other deployment's", async () => {
    const client = new QueryClient();
    const keys: readonly unknown[][] = [...everyQuery(1), ...everyQuery(2)].map((q) => [...q.queryKey]);
    expect(new Set(keys.map((k) => JSON.stringify(k))).size).toBe(keys.length);
    for (const key of keys) client.setQueryData<{ cached: boolean }>(key, { cached: true });
    await client.invalidateQueries({ queryKey: appKeys.all(1), refetchType: "none" });
    for (const q of everyQuery(1)) expect(client.getQueryState(q.queryKey)?.isInvalidated).toBe(true);
    for (const q of everyQuery(2)) expect(client.getQueryState(q.queryKey)?.isInvalidated).toBe(false);
  });

  it("reads a folder, a search and a workbook only when there is one to read", () => {
    expect(appQueries.folder(api(1), null).enabled).toBe(false);
    expect(appQueries.search(api(1), "").enabled).toBe(false);
    expect(appQueries.workbook(api(1), null).enabled).toBe(false);
    expect(appQueries.workbook(api(1), 3).enabled).toBe(true);
  });
});
