import { expect, test } from "@playwright/test";
import { E2E } from "./support/env";
import { createSession, dashboardUrl, getDemoConfig } from "./support/embed-harness";

type KitWindow = {
  __kitEvents: Array<{ type: string; payload: Record<string, unknown>; surface: string }>;
  __kitReady: Promise<{ type: string; payload: Record<string, unknown> }>;
  __kitRequest(action: unknown, timeoutMs?: number): Promise<{ status?: string; reason?: string; error?: string }>;
  __kitStarOriginError(): string;
};

test.describe("a host built with the host kit", () => {
  test("gets ready, events and action results through connectSvcEmbed", async ({ page }) => {
    const { dashboardPublicId, deploymentId } = await getDemoConfig(page.request);
    const src = dashboardUrl(dashboardPublicId, await createSession(page.request), { allowExport: "true" });
    await page.goto(`${E2E.hostUrl}/host-kit.html?embed=${encodeURIComponent(src)}`);

    const ready = await page.evaluate(() => (window as unknown as KitWindow).__kitReady.then((e) => e));
    expect(ready.type).toBe("svc:event:ready");
    expect(ready.payload).toMatchObject({ mode: "signed", deploymentId, publicId: dashboardPublicId, protocolVersion: 1 });

    await expect.poll(() => page.evaluate(() => (window as unknown as KitWindow).__kitEvents.map((e) => e.type))).toContain("svc:event:dashboard-loaded");
    const types = await page.evaluate(() => (window as unknown as KitWindow).__kitEvents.map((e) => e.type));
    expect(types[0]).toBe("svc:event:ready");

    const applied = await page.evaluate(() =>
      (window as unknown as KitWindow).__kitRequest({ type: "svc:action:set-color-scheme", payload: { scheme: "dark" } }),
    );
    expect(applied).toMatchObject({ status: "applied" });
    const embed = page.frames().find((f) => f.url().startsWith(`${E2E.platformUrl}/embed/`))!;
    expect(await embed.evaluate(() => document.documentElement.getAttribute("data-color-scheme"))).toBe("dark");

    const ignored = await page.evaluate(() =>
      (window as unknown as KitWindow).__kitRequest({
        type: "svc:action:set-filter",
        payload: { filterUrlParameter: 'f_sales.products_category={"value":"Books"}' },
      }),
    );
    expect(ignored).toMatchObject({ status: "ignored", reason: "no-filter-control" });

    // The kit sized the iframe from resize events.
    await expect.poll(() => page.evaluate(() => (window as unknown as KitWindow).__kitEvents.some((e) => e.type === "svc:event:resize"))).toBe(true);
    const lastHeight = await page.evaluate(
      () => (window as unknown as KitWindow).__kitEvents.filter((e) => e.type === "svc:event:resize").at(-1)!.payload.height as number,
    );
    await expect.poll(() => page.locator("#embed").evaluate((el) => Math.round(el.getBoundingClientRect().height))).toBe(lastHeight);

    // The kit refuses "*" as the embed origin.
    expect(await page.evaluate(() => (window as unknown as KitWindow).__kitStarOriginError())).toBe("TypeError");
  });
});
