import { expect, test, type Page } from "@playwright/test";
import { E2E } from "./support/env";
import { createSession, embedFrame, eventsOf, mark, openHost, requestAction, waitForEvent, waitForWidgetsSettled } from "./support/embed-harness";

// Session lifecycle (decisions.md "Protocol extensions"): `session-expiring` a minute before
// the token ends, the host's `set-session` swaps the token without a reload, and a token left
// to expire ends the surface with a fatal SessionExpired. Tokens live 24 h, so the page's
// clock (Playwright's, installed before navigation, in the embed's frame too) is moved ahead.

const TOKEN_TTL_MS = 24 * 60 * 60 * 1000;

/** Authorization headers of the query requests the embed sends from now on (single or batched). */
function watchQueries(page: Page): string[] {
  const seen: string[] = [];
  page.on("request", (request) => {
    if (request.url().startsWith(`${E2E.platformUrl}/api/v1/deployments/`) && /\/query(\/batch)?$/.test(request.url()))
      seen.push(request.headers().authorization ?? "");
  });
  return seen;
}

test("set-session renews the token without a reload, keeping filters and the open tab", async ({ page }) => {
  await page.clock.install();
  const queries = watchQueries(page);
  await openHost(page, { params: {} });
  await waitForEvent(page, "svc:event:dashboard-loaded");
  await waitForWidgetsSettled(page);
  const frame = page.frameLocator("#embed");
  const firstToken = queries[0];
  expect(firstToken).toMatch(/^Bearer .+/);

  // State the swap must keep: a marker on the embed's window, a filter, the second tab.
  await embedFrame(page).evaluate(() => ((window as unknown as { __marker: string }).__marker = "same-window"));
  expect((await requestAction(page, "svc:action:set-filter", { filterUrlParameter: 'f_sales.customers_country={"value":["CA"]}' })).status).toBe("applied");
  await frame.getByTestId("tab-breakdowns-by_quarter").click();
  await expect(frame.getByTestId("tab-breakdowns-by_quarter")).toHaveAttribute("aria-selected", "true");
  await waitForWidgetsSettled(page);

  // A minute before the end of the token's 24 hours the embed warns.
  const beforeWarning = await mark(page);
  await page.clock.fastForward(TOKEN_TTL_MS - 50_000);
  const expiring = await waitForEvent(page, "svc:event:session-expiring", { from: beforeWarning });
  expect(expiring.payload.secondsLeft as number).toBeGreaterThan(0);
  expect(expiring.payload.secondsLeft as number).toBeLessThanOrEqual(60);

  // The host answers with a fresh session.
  const fresh = await createSession(page.request);
  const swap = await requestAction(page, "svc:action:set-session", { sessionId: fresh });
  expect(swap.status).toBe("applied");

  // Same window (no reload), same filter, same tab, no second ready, no error.
  expect(await embedFrame(page).evaluate(() => (window as unknown as { __marker?: string }).__marker)).toBe("same-window");
  await expect(frame.getByTestId("widget-filter_country").locator(".svc-picker-summary")).toHaveText(/CA/);
  await expect(frame.getByTestId("tab-breakdowns-by_quarter")).toHaveAttribute("aria-selected", "true");
  expect(await eventsOf(page, "svc:event:ready")).toHaveLength(1);
  expect((await eventsOf(page, "svc:event:error")).filter((e) => e.payload.fatal)).toHaveLength(0);

  // And it keeps working, on the new token: a refresh re-runs the filtered queries with it.
  const before = queries.length;
  expect((await requestAction(page, "svc:action:refresh", {})).status).toBe("applied");
  await expect.poll(() => queries.length).toBeGreaterThan(before);
  await waitForWidgetsSettled(page);
  const renewed = queries.slice(before);
  expect(renewed.every((header) => header.startsWith("Bearer ") && header !== firstToken)).toBe(true);
  await expect(frame.getByTestId("widget-kpi_orders")).toHaveAttribute("data-state", "ready");
  await expect(frame.getByTestId("surface-error")).toHaveCount(0);
});

test("without an answer the token expires: fatal SessionExpired, no data, exports refused", async ({ page }) => {
  await page.clock.install();
  const queries = watchQueries(page);
  await openHost(page, { params: { allowExport: "true" } });
  await waitForEvent(page, "svc:event:dashboard-loaded");
  await waitForWidgetsSettled(page);
  const frame = page.frameLocator("#embed");
  await expect(frame.locator('[data-testid^="export-"]').first()).toBeAttached();

  const from = await mark(page);
  await page.clock.fastForward(TOKEN_TTL_MS + 60_000);
  const expired = await waitForEvent(page, "svc:event:error", { from, payload: { name: "SessionExpired" } });
  expect(expired.payload.fatal).toBe(true);

  // The expiry screen replaces the dashboard: no widgets, no numbers, no export controls.
  await expect(frame.getByTestId("surface-error")).toHaveAttribute("data-error-name", "SessionExpired");
  await expect(frame.getByTestId("dashboard")).toHaveCount(0);
  await expect(frame.locator('[data-testid^="widget-"]')).toHaveCount(0);
  await expect(frame.locator('[data-testid^="export-"]')).toHaveCount(0);
  await expect(frame.locator(".svc-kpi-value")).toHaveCount(0);

  // Nothing the host asks for brings data back: no query leaves the embed, no download happens.
  const before = queries.length;
  await requestAction(page, "svc:action:refresh", {});
  await requestAction(page, "svc:action:set-filter", { filterUrlParameter: 'f_sales.status={"value":"completed"}' });
  await page.waitForTimeout(500);
  expect(queries.length).toBe(before);
  expect(await eventsOf(page, "svc:event:download")).toHaveLength(0);
});
