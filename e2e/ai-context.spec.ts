import { expect, test, type APIRequestContext } from "@playwright/test";
import { E2E } from "./support/env";
import { createSession, getDemoConfig, openChatInHost, requestAction, waitForEvent } from "./support/embed-harness";
import { shotsDir } from "./support/shots";

const SHOTS = shotsDir("ai-context");

/** A bearer token of a fresh session of the same acme viewer the chat frame has. */
async function acmeToken(request: APIRequestContext): Promise<string> {
  const sessionId = await createSession(request);
  const res = await request.post(`${E2E.platformUrl}/api/v1/embed/session/token`, { data: { sessionId } });
  return ((await res.json()) as { token: string }).token;
}

async function query(request: APIRequestContext, token: string, body: unknown): Promise<Record<string, unknown>[]> {
  const { deploymentId } = await getDemoConfig(request);
  const res = await request.post(`${E2E.platformUrl}/api/v1/deployments/${deploymentId}/query`, {
    headers: { authorization: `Bearer ${token}` },
    data: { query: body },
  });
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { data: Record<string, unknown>[] }).data;
}

test.describe("AI context from the host (set-ai-context)", () => {
  test("narrows the chat's answers to the page's context, shows it in the header and says so in the answer", async ({ page }) => {
    const token = await acmeToken(page.request);
    const byCountry = await query(page.request, token, {
      measures: ["sales.revenue"],
      dimensions: ["sales.customers_country"],
      order: [["sales.revenue", "desc"]],
    });
    const country = String(byCountry[1]!["sales.customers_country"]);
    const [all] = await query(page.request, token, { measures: ["sales.revenue"] });
    const [filtered] = await query(page.request, token, {
      measures: ["sales.revenue"],
      filters: [{ member: "sales.customers_country", operator: "equals", values: [country] }],
    });
    const expected = Number(filtered!["sales.revenue"]);
    expect(expected).toBeLessThan(Number(all!["sales.revenue"]));

    const frame = await openChatInHost(page, await createSession(page.request));
    const ready = await waitForEvent(page, "svc:event:ready");
    expect((ready.payload.capabilities as { actions: string[] }).actions).toContain("svc:action:set-ai-context");
    const result = await requestAction(page, "svc:action:set-ai-context", {
      title: "Account: Acme, one market",
      filters: [{ member: "sales.customers_country", value: country }],
      views: ["sales"],
    });
    expect(result.status, result.reason).toBe("applied");
    expect(result.reason).toBe("title; filters=sales.customers_country; views=sales");

    const header = frame.getByTestId("chat-ai-context");
    await expect(header).toContainText("Account: Acme, one market");
    await expect(header).toContainText(/Country: \S+/);
    await expect(header).toContainText("Views: Sales");

    await frame.getByTestId("chat-input").fill("total revenue");
    await frame.getByTestId("chat-send").click();
    const answer = frame.getByTestId("chat-answer").last();
    await expect(answer).toHaveAttribute("data-status", "completed");
    await expect(answer).toContainText("Answered for this page's context “Account: Acme, one market”");
    await expect(answer).toContainText("Within your own access only");
    const text = (await answer.textContent()) ?? "";
    const figure = /Revenue: \$([\d,]+\.\d\d)/.exec(text)?.[1];
    expect(figure, text.slice(0, 600)).toBeDefined();
    expect(Number(figure!.replace(/,/g, ""))).toBeCloseTo(expected, 2);
  });

  test("a context naming an unknown view or member is rejected with the reason, and the one in force stays", async ({ page }) => {
    const frame = await openChatInHost(page, await createSession(page.request));
    expect((await requestAction(page, "svc:action:set-ai-context", { title: "Account: Acme" })).status).toBe("applied");
    await expect(frame.getByTestId("chat-ai-context")).toContainText("Account: Acme");

    const view = await requestAction(page, "svc:action:set-ai-context", { title: "Warehouse", views: ["warehouse"] });
    expect(view.status).toBe("rejected");
    expect(view.reason).toMatch(/^invalid-context: .*views\.0: unknown view "warehouse"/);
    // The cubes' tenant column is not there to filter on: a context cannot reach another tenant's rows.
    const member = await requestAction(page, "svc:action:set-ai-context", { filters: [{ member: "orders.tenant", value: "globex-inc" }] });
    expect(member.status).toBe("rejected");
    expect(member.reason).toMatch(/filters\.0\.member: unknown dimension "orders\.tenant"/);
    // A malformed payload never reaches the platform.
    const malformed = await requestAction(page, "svc:action:set-ai-context", { views: "sales" });
    expect(malformed).toMatchObject({ status: "rejected", reason: "invalid-payload" });

    await expect(frame.getByTestId("chat-ai-context")).toContainText("Account: Acme");
    await expect(frame.getByTestId("chat-ai-context")).not.toContainText("Warehouse");
    expect((await requestAction(page, "svc:action:set-ai-context", {})).reason).toBe("cleared");
    await expect(frame.getByTestId("chat-ai-context")).toHaveCount(0);
  });

  for (const [name, scheme, size] of [
    ["light", "light", { width: 1100, height: 760 }],
    ["dark", "dark", { width: 1100, height: 760 }],
    ["phone", "light", { width: 390, height: 760 }],
  ] as const) {
    test(`the header's context looks finished (${name})`, async ({ page }) => {
      const frame = await openChatInHost(page, await createSession(page.request), {}, size);
      if (scheme === "dark") expect((await requestAction(page, "svc:action:set-color-scheme", { scheme: "dark" })).status).toBe("applied");
      const context = {
        title: "Account: Acme, EU region",
        filters: [{ member: "sales.status", operator: "not_equals", value: ["cancelled", "returned"] }],
        views: ["sales"],
      };
      expect((await requestAction(page, "svc:action:set-ai-context", context)).status).toBe("applied");
      const header = frame.getByTestId("chat-ai-context");
      await expect(header).toBeVisible();
      // Nothing of the line is cut: it wraps inside the frame.
      const box = (await header.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(size.width + 1);
      if (SHOTS) await page.locator("#embed").screenshot({ path: `${SHOTS}/ai-context-${name}.png` });
    });
  }
});
