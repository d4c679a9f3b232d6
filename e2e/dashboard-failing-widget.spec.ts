import { expect, test, type APIRequestContext } from "@playwright/test";
import { E2E } from "./support/env";
import { createSession, dashboardUrl, eventsOf, getDemoConfig, mark, waitForEvent } from "./support/embed-harness";

// A dashboard whose report has a bad query, built through the API as a customer would: the
// report by public id, a workbook by slug with the draft, publish, embed access, allowEmbed.
// The widget fails on its own (error with retry, a non-fatal `error` event); the rest of the
// dashboard loads and `dashboard-loaded` still fires.

const auth = { authorization: `Bearer ${E2E.adminToken}` };

async function api<T>(request: APIRequestContext, method: "put" | "post" | "patch" | "get", path: string, data?: unknown): Promise<T> {
  const response = await request.fetch(`${E2E.platformUrl}${path}`, { method: method.toUpperCase(), headers: auth, ...(data === undefined ? {} : { data }) });
  expect(response.ok(), `${method} ${path}: ${response.status()} ${await response.text()}`).toBe(true);
  return (await response.json()) as T;
}

async function createFailingDashboard(request: APIRequestContext): Promise<{ publicId: string; deploymentId: number }> {
  const { deploymentId, dashboardPublicId } = await getDemoConfig(request);
  const demo = await api<{ dashboard: { reportSnapshots: { reportId: number; name: string | null }[] } }>(
    request,
    "get",
    `/api/v1/embed/dashboard/${dashboardPublicId}`,
  );
  const revenue = demo.dashboard.reportSnapshots.find((s) => s.name === "kpi_revenue")!;
  const bad = await api<{ id: number }>(request, "put", `/api/v1/deployments/${deploymentId}/reports/by-public-id/e2eBadQuery1`, {
    name: "e2e_bad_query",
    title: "Broken report",
    kind: "table",
    query: { measures: ["sales.no_such_measure"] },
  });
  const workbook = await api<{ id: number }>(request, "put", `/api/v1/deployments/${deploymentId}/workbooks/by-slug/e2e-failing-widget`, {
    name: "Failing widget",
    meta: {
      dashboardDraft: {
        title: "Failing widget",
        widgets: [
          { id: "bad", type: "CHART", position: { x: 0, y: 0, w: 6, h: 5 }, config: { reportId: bad.id } },
          { id: "good", type: "CHART", position: { x: 6, y: 0, w: 6, h: 5 }, config: { reportId: revenue.reportId } },
        ],
      },
    },
  });
  const dashboard = await api<{ publicId: string }>(request, "post", `/api/v1/deployments/${deploymentId}/workbooks/${workbook.id}/dashboard/publish`);
  await api(request, "put", `/api/v1/deployments/${deploymentId}/workbooks/${workbook.id}/embed-access`, {
    rules: [{ embedTenantName: null, action: "read" }],
  });
  await api(request, "patch", `/api/v1/embed/dashboard/${dashboard.publicId}`, { allowEmbed: true });
  return { publicId: dashboard.publicId, deploymentId };
}

test("a widget whose query fails shows its error with a retry; the dashboard still loads", async ({ page }) => {
  const { publicId } = await createFailingDashboard(page.request);
  const sessionId = await createSession(page.request);
  await page.goto(`${E2E.hostUrl}/host.html?embed=${encodeURIComponent(dashboardUrl(publicId, sessionId))}`);

  const loaded = await waitForEvent(page, "svc:event:dashboard-loaded", { timeout: 30_000 });
  expect(loaded.payload).toMatchObject({ publicId, widgetCount: 2 });
  const error = await waitForEvent(page, "svc:event:error", { payload: { context: "widget:bad" } });
  expect(error.payload).toMatchObject({ name: "QueryFailed", fatal: false });
  expect(await eventsOf(page, "svc:event:ready")).toHaveLength(1);

  const frame = page.frameLocator("#embed");
  const bad = frame.getByTestId("widget-bad");
  await expect(bad).toHaveAttribute("data-state", "error");
  await expect(bad.getByRole("alert")).toBeVisible();
  await expect(frame.getByTestId("widget-good")).toHaveAttribute("data-state", "ready");
  await expect(frame.getByTestId("surface-error")).toHaveCount(0);

  // Retry runs the query again: it fails again, with a fresh non-fatal error.
  const from = await mark(page);
  await frame.getByTestId("retry-bad").click();
  const again = await waitForEvent(page, "svc:event:error", { from, payload: { context: "widget:bad" } });
  expect(again.payload.fatal).toBe(false);
  await expect(bad).toHaveAttribute("data-state", "error");
  expect((await eventsOf(page, "svc:event:error")).every((e) => e.payload.fatal === false)).toBe(true);
});
