import { expect, test } from "@playwright/test";
import { ACTION_TYPES, SVC_EVENT_TYPES } from "../src/protocol";
import { E2E } from "./support/env";
import { embedFrame, eventsOf, expectAllFromEmbed, expectEventEnvelope, mark, openHost, recorded, recordedSince, waitForEvent } from "./support/embed-harness";

test.describe("embed events on a raw postMessage host", () => {
  test("ready arrives first and once, then view and dashboard-loaded, from the platform origin", async ({ page }) => {
    const config = await openHost(page);
    const loaded = await waitForEvent(page, "svc:event:dashboard-loaded");
    await page.waitForTimeout(300);

    const events = await eventsOf(page);
    expect(events[0]!.type).toBe("svc:event:ready");
    expect(events.filter((e) => e.type === "svc:event:ready")).toHaveLength(1);
    await expectAllFromEmbed(page);

    const ready = events[0]!;
    expectEventEnvelope(ready, "svc:event:ready");
    expect(ready.payload).toMatchObject({
      embedTenant: "acme-corp",
      deploymentId: config.deploymentId,
      mode: "signed",
      surface: "dashboard",
      publicId: config.dashboardPublicId,
      protocolVersion: 1,
    });
    const capabilities = ready.payload.capabilities as { events: string[]; actions: string[] };
    expect(capabilities.events).toEqual(expect.arrayContaining([...SVC_EVENT_TYPES]));
    // Every action, set-session too (a signed embed applies it), and set-ai-context: the frame can show the chat.
    expect(capabilities.actions).toEqual(expect.arrayContaining(Object.values(ACTION_TYPES)));

    const view = events.find((e) => e.type === "svc:event:view")!;
    expectEventEnvelope(view, "svc:event:view");
    expect(view.payload).toMatchObject({ surface: "dashboard", path: `/dashboard/${config.dashboardPublicId}`, publicId: config.dashboardPublicId });
    expect(typeof view.payload.title).toBe("string");

    expectEventEnvelope(loaded, "svc:event:dashboard-loaded");
    expect(events.indexOf(events.find((e) => e.type === "svc:event:dashboard-loaded")!)).toBeGreaterThan(0);
    expect(loaded.payload.publicId).toBe(config.dashboardPublicId);
    expect(loaded.payload.widgetCount).toBeGreaterThan(5);
    expect(loaded.payload.loadDurationMs).toBeGreaterThan(0);
    expect(loaded.payload.loadDurationMs).toBeLessThan(60_000);
    // Every event type seen so far is one the embed announced.
    for (const e of events) expect(capabilities.events).toContain(e.type);
    // Timestamps never go backwards.
    for (let i = 1; i < events.length; i++) expect(events[i]!.timestamp).toBeGreaterThanOrEqual(events[i - 1]!.timestamp);

    // Visible effect: the dashboard is there, with numbers in the KPIs.
    const frame = page.frameLocator("#embed");
    await expect(frame.getByTestId("dashboard")).toBeVisible();
    await expect(frame.getByTestId("widget-kpi_revenue")).toHaveAttribute("data-state", "ready");
    await expect(frame.getByTestId("widget-kpi_revenue")).toContainText(/\d/);
  });

  test("resize reports the content size and does not loop when the host sizes the iframe from it", async ({ page }) => {
    await openHost(page, { autosize: true });
    await waitForEvent(page, "svc:event:dashboard-loaded");
    const first = await waitForEvent(page, "svc:event:resize");
    expectEventEnvelope(first, "svc:event:resize");
    expect(first.payload.height).toBeGreaterThan(100);
    expect(first.payload.width).toBeGreaterThan(100);

    // Settle: wait for a quiet second (charts finish drawing), then count over two seconds.
    let last = await mark(page);
    for (let i = 0; i < 20; i++) {
      await page.waitForTimeout(1000);
      const now = await mark(page);
      if (now === last) break;
      last = now;
    }
    const before = await mark(page);
    await page.waitForTimeout(2000);
    const later = (await recordedSince(page, before)).filter((m) => (m.data as { type?: string }).type === "svc:event:resize");
    expect(later).toHaveLength(0);

    const resizes = await eventsOf(page, "svc:event:resize");
    const height = resizes.at(-1)!.payload.height as number;
    const iframeHeight = await page.locator("#embed").evaluate((el) => el.getBoundingClientRect().height);
    expect(Math.round(iframeHeight)).toBe(height);
    // The embed's content is taller than the original 700px box, so the host grew the frame.
    const contentHeight = await embedFrame(page).evaluate(() => Math.ceil(document.querySelector(".svc-content")!.getBoundingClientRect().height));
    expect(contentHeight).toBe(height);
  });

  test("an unusable session gives a fatal SessionInvalid error and no ready", async ({ page }) => {
    const config = await (await page.request.get(`${E2E.demoHostUrl}/config.json`)).json();
    const src = `${E2E.platformUrl}/embed/dashboard/${config.dashboardPublicId}?session=not-a-real-session-id`;
    await page.goto(`${E2E.hostUrl}/host.html?embed=${encodeURIComponent(src)}`);
    const error = await waitForEvent(page, "svc:event:error");
    expectEventEnvelope(error, "svc:event:error");
    expect(error.payload).toMatchObject({ name: "SessionInvalid", fatal: true });
    expect(typeof error.payload.message).toBe("string");
    await expect(page.frameLocator("#embed").getByTestId("surface-error")).toBeVisible();
    await page.waitForTimeout(500);
    expect(await eventsOf(page, "svc:event:ready")).toHaveLength(0);
    expect((await recorded(page)).every((m) => m.origin === E2E.platformUrl)).toBe(true);
  });
});
