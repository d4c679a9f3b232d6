/**
 * The host check as a Playwright fixture, for a host's own browser tests:
 *
 *   import { test, expect } from "svc/host-check/fixture";
 *   test("our page embeds svc correctly", async ({ hostCheck }) => {
 *     const report = await hostCheck("https://app.example.com/analytics");
 *     expect(report.results.filter((r) => r.status === "fail")).toEqual([]);
 *   });
 *
 * The check runs in a browser context of its own on the test's browser, so the test's page is untouched.
 */
import { test as base } from "@playwright/test";
import { checkHostPage } from "./check-host-page";
import type { HostCheckOptions, HostCheckReport } from "./page-session";

export { expect } from "@playwright/test";

export const test = base.extend<{ hostCheck: (url: string, options?: HostCheckOptions) => Promise<HostCheckReport> }>({
  hostCheck: async ({ browser }, provide) => {
    const contexts: Awaited<ReturnType<typeof browser.newContext>>[] = [];
    await provide(async (url, options) => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      contexts.push(context);
      return checkHostPage(context, url, options);
    });
    await Promise.all(contexts.map((c) => c.close()));
  },
});
