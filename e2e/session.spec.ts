import { expect, test } from "@playwright/test";
import { createSession, embedFrame, mark, openHost, requestAction, waitForEvent } from "./support/embed-harness";

test.describe("signed session lifetime", () => {
  test("set-session swaps the token without a reload; an unusable session id is rejected", async ({ page }) => {
    await openHost(page);
    await waitForEvent(page, "svc:event:dashboard-loaded");
    const frame = embedFrame(page);
    await frame.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));

    const invalid = await requestAction(page, "svc:action:set-session", { sessionId: "no-such-session" });
    expect(invalid).toMatchObject({ status: "rejected", reason: "session-invalid" });

    const fresh = await createSession(page.request);
    expect((await requestAction(page, "svc:action:set-session", { sessionId: fresh })).status).toBe("applied");
    // Used once, the same id cannot be swapped in again.
    expect((await requestAction(page, "svc:action:set-session", { sessionId: fresh })).status).toBe("rejected");
    // Same document (no reload), and queries still work with the new token.
    expect(await frame.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
    const query = page.waitForRequest((r) => r.url().endsWith("/query") && r.method() === "POST");
    expect((await requestAction(page, "svc:action:refresh", {})).status).toBe("applied");
    const response = await (await query).response();
    expect(response?.status()).toBe(200);
  });

  test("session-expiring comes a minute before the token expires, then a fatal SessionExpired", async ({ page }) => {
    // The embed's clock is Playwright's (in every frame), so hours pass in an instant.
    await page.clock.install();
    const exchange = page.waitForResponse((r) => r.url().endsWith("/api/v1/embed/session/token") && r.request().method() === "POST");
    await openHost(page);
    const { expiresAt } = (await (await exchange).json()) as { expiresAt: string | number };
    const expiresAtMs = typeof expiresAt === "number" ? (expiresAt < 1e12 ? expiresAt * 1000 : expiresAt) : Date.parse(expiresAt);
    await waitForEvent(page, "svc:event:dashboard-loaded");
    const from = await mark(page);
    const now = await page.evaluate(() => Date.now());
    // To just inside the last minute: the warning is due, the expiry is not.
    await page.clock.fastForward(expiresAtMs - now - 50_000);
    const expiring = await waitForEvent(page, "svc:event:session-expiring", { from });
    expect(expiring.source).toBe("svc-embed");
    expect(expiring.surface).toBe("dashboard");
    expect(expiring.payload.expiresAt).toBe(expiresAtMs);
    expect(expiring.payload.secondsLeft).toBeGreaterThan(40);
    expect(expiring.payload.secondsLeft).toBeLessThanOrEqual(60);
    expect(await waitForEvent(page, "svc:event:error", { from, timeout: 500 }).catch(() => null)).toBeNull();

    await page.clock.fastForward(60_000);
    const expired = await waitForEvent(page, "svc:event:error", { from, payload: { name: "SessionExpired" } });
    expect(expired.payload.fatal).toBe(true);
    await expect(page.frameLocator("#embed").getByTestId("surface-error")).toBeVisible();
  });
});
