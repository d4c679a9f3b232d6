import { expect, test } from "@playwright/test";
import { E2E } from "./support/env";
import { createSession, dashboardUrl, getDemoConfig, waitForEvent } from "./support/embed-harness";

test.describe("an origin that is not allowed", () => {
  test("the embed is served with frame-ancestors listing only itself and the allowed hosts", async ({ request }) => {
    const { dashboardPublicId } = await getDemoConfig(request);
    const response = await request.get(dashboardUrl(dashboardPublicId, null));
    expect(response.status()).toBe(200);
    const csp = response.headers()["content-security-policy"] ?? "";
    const ancestors = csp
      .split(";")
      .map((d) => d.trim())
      .find((d) => d.startsWith("frame-ancestors"));
    expect(ancestors).toBeDefined();
    const sources = ancestors!.split(/\s+/).slice(1);
    expect(new Set(sources)).toEqual(new Set(["'self'", E2E.hostUrl, E2E.demoHostUrl]));
    expect(csp).not.toContain(E2E.attackerUrl);
    expect(csp).not.toContain("*");
  });

  test("cannot frame the embed: the app never runs, no event reaches it, and the session stays unused", async ({ page, browser }) => {
    const { dashboardPublicId } = await getDemoConfig(page.request);
    const sessionId = await createSession(page.request);
    const src = dashboardUrl(dashboardPublicId, sessionId, { allowExport: "true" });
    const blocked = page.waitForResponse((r) => r.url().startsWith(`${E2E.platformUrl}/embed/dashboard/`));
    await page.goto(`${E2E.attackerUrl}/attacker.html?embed=${encodeURIComponent(src)}`);
    // The platform did answer, with a policy that forbids this framing.
    expect((await blocked).headers()["content-security-policy"]).toContain("frame-ancestors");
    await page.waitForTimeout(2500);

    const events = await page.evaluate(() => (window as unknown as { __events: Array<{ origin: string }> }).__events);
    expect(events).toHaveLength(0);
    // Chromium shows its error page in place of the embed; nothing of the app is there.
    const frame = page.frames().find((f) => f !== page.mainFrame());
    expect(frame).toBeDefined();
    expect(frame!.url().startsWith(`${E2E.platformUrl}/embed/`) && (await frame!.locator("#root").count()) > 0).toBe(false);
    await expect(page.frameLocator("#embed").getByTestId("dashboard")).toHaveCount(0);

    // The app never ran, so the single-use session was never exchanged: an allowed host can still use it.
    const host = await browser.newPage();
    await host.goto(`${E2E.hostUrl}/host.html?embed=${encodeURIComponent(src)}`);
    const ready = await waitForEvent(host, "svc:event:ready");
    expect(ready.payload.embedTenant).toBe("acme-corp");
    await host.close();
  });

  test("an embed the attacker opens as a popup is not framed: it posts nothing and ignores the opener", async ({ page, context }) => {
    const { dashboardPublicId } = await getDemoConfig(page.request);
    const sessionId = await createSession(page.request);
    await page.goto(`${E2E.attackerUrl}/attacker.html`);
    const popupPromise = context.waitForEvent("page");
    expect(await page.evaluate((url) => (window as unknown as { __popup(u: string): boolean }).__popup(url), dashboardUrl(dashboardPublicId, sessionId))).toBe(
      true,
    );
    const popup = await popupPromise;
    await expect(popup.getByTestId("dashboard")).toBeVisible({ timeout: 20_000 });

    // The opener keeps sending actions; the popup's parent is itself, so nobody qualifies.
    for (let i = 0; i < 3; i++) {
      await page.evaluate(() => {
        const w = window as unknown as { __spam(t: Window): void; __opened: Window };
        w.__spam(w.__opened);
      });
      await page.waitForTimeout(300);
    }
    expect(await popup.evaluate(() => document.documentElement.getAttribute("data-color-scheme"))).toBe("light");
    expect(popup.url()).toContain(`/embed/dashboard/${dashboardPublicId}`);
    await expect(popup.getByTestId("dashboard")).toBeVisible();
    const events = await page.evaluate(() => (window as unknown as { __events: unknown[] }).__events);
    expect(events).toHaveLength(0);
    await popup.close();
  });
});
