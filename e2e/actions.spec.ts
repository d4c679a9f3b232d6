import { expect, test, type Page } from "@playwright/test";
import { E2E } from "./support/env";
import {
  action,
  embedFrame,
  eventsOf,
  expectEventEnvelope,
  mark,
  openHost,
  postRaw,
  recordedSince,
  requestAction,
  waitForEvent,
  waitForWidgetsSettled,
  type DemoConfig,
} from "./support/embed-harness";

// One embedded dashboard serves the action tests of this file, in order; each puts the embed
// back in its default state. (After a failure Playwright starts a new worker, and beforeAll
// opens a fresh embed for the tests that remain.)

let page: Page;
let config: DemoConfig;

test.beforeAll(async ({ browser }) => {
  page = await browser.newPage();
  config = await openHost(page);
  await waitForEvent(page, "svc:event:dashboard-loaded");
});

test.afterAll(async () => {
  await page.close();
});

const root = () => embedFrame(page);
const htmlAttribute = (name: string) => root().evaluate((n) => document.documentElement.getAttribute(n), name);
const cssVariable = (name: string) => root().evaluate((n) => getComputedStyle(document.documentElement).getPropertyValue(n).trim(), name);
const isQueryRequest = (url: string) => url.startsWith(`${E2E.platformUrl}/api/v1/deployments/`) && url.endsWith("/query");

test.describe("host actions over raw postMessage", () => {
  test("set-color-scheme switches data-color-scheme on the embed's document", async () => {
    expect(await htmlAttribute("data-color-scheme")).toBe("light");
    const dark = await requestAction(page, "svc:action:set-color-scheme", { scheme: "dark" });
    expect(dark).toMatchObject({ action: "svc:action:set-color-scheme", status: "applied" });
    expectEventEnvelope(dark.envelope, "svc:event:action-result");
    await expect.poll(() => htmlAttribute("data-color-scheme")).toBe("dark");
    expect((await requestAction(page, "svc:action:set-color-scheme", { scheme: "light" })).status).toBe("applied");
    await expect.poll(() => htmlAttribute("data-color-scheme")).toBe("light");
  });

  test("set-color-scheme auto follows the viewer's preference live", async () => {
    await page.emulateMedia({ colorScheme: "dark" });
    expect((await requestAction(page, "svc:action:set-color-scheme", { scheme: "auto" })).status).toBe("applied");
    await expect.poll(() => htmlAttribute("data-color-scheme")).toBe("dark");
    await page.emulateMedia({ colorScheme: "light" });
    await expect.poll(() => htmlAttribute("data-color-scheme")).toBe("light");
    await page.emulateMedia({ colorScheme: "dark" });
    await expect.poll(() => htmlAttribute("data-color-scheme")).toBe("dark");
    // An explicit scheme stops following the preference.
    expect((await requestAction(page, "svc:action:set-color-scheme", { scheme: "light" })).status).toBe("applied");
    await expect.poll(() => htmlAttribute("data-color-scheme")).toBe("light");
    await page.emulateMedia({ colorScheme: "light" });
  });

  test("set-theme changes the theme's CSS variables and refuses unsafe values", async () => {
    const result = await requestAction(page, "svc:action:set-theme", { primaryColor: "#ff3366", borderRadius: 12, font: "Georgia, serif" });
    expect(result).toMatchObject({ status: "applied" });
    expect(result.reason).toBeUndefined();
    await expect.poll(() => cssVariable("--svc-primary")).toBe("#ff3366");
    await expect.poll(() => cssVariable("--svc-font")).toBe("Georgia, serif");

    const unsafe = await requestAction(page, "svc:action:set-theme", { primaryColor: "red; background: url(https://evil.example/x)", font: "Arial" });
    expect(unsafe.status).toBe("applied");
    expect(unsafe.reason).toBe("ignored-fields:primaryColor");
    await expect.poll(() => cssVariable("--svc-font")).toBe("Arial");
    expect(await cssVariable("--svc-primary")).not.toContain("evil");
  });

  test("set-locale switches <html lang>, maps regional variants, and ignores unknown locales", async () => {
    const de = await requestAction(page, "svc:action:set-locale", { locale: "de" });
    expect(de.status).toBe("applied");
    await expect.poll(() => htmlAttribute("lang")).toBe("de-DE");

    expect((await requestAction(page, "svc:action:set-locale", { locale: "es-AR" })).status).toBe("applied");
    await expect.poll(() => htmlAttribute("lang")).toBe("es-ES");

    const unknown = await requestAction(page, "svc:action:set-locale", { locale: "tlh-QO" });
    expect(unknown).toMatchObject({ status: "ignored", reason: "unsupported-locale" });
    expect(await htmlAttribute("lang")).toBe("es-ES");

    expect((await requestAction(page, "svc:action:set-locale", { locale: "en-US" })).status).toBe("applied");
    await expect.poll(() => htmlAttribute("lang")).toBe("en-US");
  });

  test("set-timezone re-runs the queries in the new time zone and rejects non-IANA names", async () => {
    const query = page.waitForRequest((r) => isQueryRequest(r.url()) && r.method() === "POST" && r.postDataJSON()?.query?.timezone === "Asia/Tokyo");
    const result = await requestAction(page, "svc:action:set-timezone", { timezone: "Asia/Tokyo" });
    expect(result.status).toBe("applied");
    await query;
    await waitForWidgetsSettled(page);

    expect(await requestAction(page, "svc:action:set-timezone", { timezone: "+02:00" })).toMatchObject({ status: "rejected", reason: "invalid-timezone" });
    expect(await requestAction(page, "svc:action:set-timezone", { timezone: "Mars/Olympus_Mons" })).toMatchObject({
      status: "rejected",
      reason: "invalid-timezone",
    });
  });

  test("set-filter applies a filter, reports filters-changed in the same form, and changes the numbers", async () => {
    const frame = page.frameLocator("#embed");
    const kpi = frame.getByTestId("widget-kpi_orders");
    // An earlier test switched the time zone: wait until the numbers have stopped changing (the
    // widgets keep their last answer on screen while the new zone's queries run, so a loaded
    // machine can show the old zone's numbers for a second or more).
    let before = "";
    await expect
      .poll(async () => {
        const first = (await kpi.innerText()).trim();
        await page.waitForTimeout(2000);
        before = (await kpi.innerText()).trim();
        return first === before && (await kpi.getAttribute("data-state")) === "ready";
      })
      .toBe(true);

    const parameter = 'f_sales.status={"value":["cancelled"]}';
    const from = await mark(page);
    const result = await requestAction(page, "svc:action:set-filter", { filterUrlParameter: parameter });
    expect(result.status).toBe("applied");
    const changed = await waitForEvent(page, "svc:event:filters-changed", { from });
    expectEventEnvelope(changed, "svc:event:filters-changed");
    expect(changed.payload.filterUrlParameters).toEqual([parameter]);

    await expect(kpi).toHaveAttribute("data-state", "ready");
    await expect.poll(async () => (await kpi.innerText()).trim()).not.toBe(before);

    // Clearing with null brings the numbers back.
    const clearFrom = await mark(page);
    expect((await requestAction(page, "svc:action:set-filter", { filterUrlParameter: "f_sales.status=null" })).status).toBe("applied");
    const cleared = await waitForEvent(page, "svc:event:filters-changed", { from: clearFrom });
    expect(cleared.payload.filterUrlParameters).toEqual([]);
    await expect.poll(async () => (await kpi.innerText()).trim()).toBe(before);
  });

  test("set-filter on a member without a control is ignored, a malformed one rejected, neither changes filters", async () => {
    const from = await mark(page);
    const noControl = await requestAction(page, "svc:action:set-filter", { filterUrlParameter: 'f_sales.products_category={"value":"Books"}' });
    expect(noControl).toMatchObject({ status: "ignored", reason: "no-filter-control" });
    const malformed = await requestAction(page, "svc:action:set-filter", { filterUrlParameter: "f_sales.status={not json" });
    expect(malformed.status).toBe("rejected");
    expect(typeof malformed.reason).toBe("string");
    await page.waitForTimeout(300);
    const changes = (await recordedSince(page, from)).filter((m) => (m.data as { type?: string }).type === "svc:event:filters-changed");
    expect(changes).toHaveLength(0);
  });

  test("refresh re-runs the widget queries", async () => {
    const query = page.waitForRequest((r) => isQueryRequest(r.url()) && r.method() === "POST");
    const result = await requestAction(page, "svc:action:refresh", {});
    expect(result).toMatchObject({ action: "svc:action:refresh", status: "applied" });
    await query;
    // `refresh` may also come without a payload at all.
    const bare = page.waitForRequest((r) => isQueryRequest(r.url()) && r.method() === "POST");
    const from = await mark(page);
    await postRaw(page, { source: "svc-embed", direction: "action", type: "svc:action:refresh", timestamp: Date.now(), requestId: "bare-refresh" });
    expect((await waitForEvent(page, "svc:event:action-result", { from, payload: { requestId: "bare-refresh" } })).payload.status).toBe("applied");
    await bare;
  });

  test("an action without requestId takes effect and gets no action-result", async () => {
    const from = await mark(page);
    await postRaw(page, action("svc:action:set-color-scheme", { scheme: "dark" }));
    await expect.poll(() => htmlAttribute("data-color-scheme")).toBe("dark");
    await page.waitForTimeout(400);
    const answers = (await recordedSince(page, from)).filter((m) => (m.data as { type?: string }).type === "svc:event:action-result");
    expect(answers).toHaveLength(0);
    await postRaw(page, action("svc:action:set-color-scheme", { scheme: "light" }));
    await expect.poll(() => htmlAttribute("data-color-scheme")).toBe("light");
  });

  test("navigate moves inside the embed and reports navigate with previousPath; a foreign path is rejected", async () => {
    const dashboardPath = `/dashboard/${config.dashboardPublicId}`;
    const bad = await requestAction(page, "svc:action:navigate", { path: "//evil.example/phish" });
    expect(bad).toMatchObject({ status: "rejected", reason: "invalid-path" });

    const from = await mark(page);
    expect((await requestAction(page, "svc:action:navigate", { path: "/chat" })).status).toBe("applied");
    const navigated = await waitForEvent(page, "svc:event:navigate", { from });
    expectEventEnvelope(navigated, "svc:event:navigate");
    expect(navigated.payload).toEqual({ path: "/chat", previousPath: dashboardPath });
    await expect(page.frameLocator("#embed").getByTestId("chat-surface")).toBeVisible();
    // The chat's view names the chat, in the payload and on the envelope.
    const chatView = await waitForEvent(page, "svc:event:view", { from });
    expect(chatView.payload).toMatchObject({ surface: "chat", path: "/chat" });
    expect(chatView.surface).toBe("chat");

    const back = await mark(page);
    expect((await requestAction(page, "svc:action:navigate", { path: dashboardPath })).status).toBe("applied");
    expect((await waitForEvent(page, "svc:event:navigate", { from: back })).payload).toEqual({ path: dashboardPath, previousPath: "/chat" });
    await expect(page.frameLocator("#embed").getByTestId("dashboard")).toBeVisible();
    // Still one ready in the whole life of the embed.
    expect(await eventsOf(page, "svc:event:ready")).toHaveLength(1);
  });
});
