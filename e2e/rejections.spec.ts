import { expect, test, type Page } from "@playwright/test";
import { E2E } from "./support/env";
import { action, embedFrame, expectAllFromEmbed, mark, openHost, postRaw, recordedSince, requestAction, waitForEvent } from "./support/embed-harness";

// One embed, with two sibling frames on the host page (one from the attacker origin, one from
// the host's own origin), takes every kind of bad message in turn. After each, the embed must
// be unchanged and silent (or answer `rejected` where the docs say so), and still obey a valid
// action.
let page: Page;

test.beforeAll(async ({ browser }) => {
  page = await browser.newPage();
  await openHost(page, { sibling: ["attacker", "host"] });
  await waitForEvent(page, "svc:event:dashboard-loaded");
  // A listener of the test's own inside the embed proves the bad messages were delivered
  // (and then ignored), so no case passes because a message went nowhere.
  await embedFrame(page).evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { __seenOrigins: string[] }).__seenOrigins = seen;
    window.addEventListener("message", (e) => seen.push(e.origin));
  });
});

test.afterAll(async () => {
  await page.close();
});

const scheme = () => embedFrame(page).evaluate(() => document.documentElement.getAttribute("data-color-scheme"));
const siblingFrame = (origin: string) => {
  const frame = page.frames().find((f) => f.url() === `${origin}/sibling.html`);
  if (!frame) throw new Error(`no sibling frame from ${origin}`);
  return frame;
};
const DARK = { scheme: "dark" };
const seenOrigins = () => embedFrame(page).evaluate(() => [...(window as unknown as { __seenOrigins: string[] }).__seenOrigins]);

/** Asserts that what was sent after `from` left the scheme light and produced no answer (or exactly `answer`). */
async function expectIgnored(from: number, answer: { requestId: string; status: string; reason: string } | null) {
  if (answer) {
    const result = await waitForEvent(page, "svc:event:action-result", { from, payload: { requestId: answer.requestId } });
    expect(result.payload).toMatchObject({ status: answer.status, reason: answer.reason });
  }
  await page.waitForTimeout(400);
  expect(await scheme()).toBe("light");
  const later = await recordedSince(page, from);
  const results = later.filter((m) => (m.data as { type?: string }).type === "svc:event:action-result");
  expect(results).toHaveLength(answer ? 1 : 0);
  expect(later.filter((m) => (m.data as { type?: string }).type === "svc:event:error")).toHaveLength(0);
}

/** The embed still works: a valid action applies (and is undone for the next case). */
async function expectStillWorking() {
  expect((await requestAction(page, "svc:action:set-color-scheme", DARK)).status).toBe("applied");
  await expect.poll(scheme).toBe("dark");
  expect((await requestAction(page, "svc:action:set-color-scheme", { scheme: "light" })).status).toBe("applied");
  await expect.poll(scheme).toBe("light");
}

test.describe("messages the embed must ignore", () => {
  test("a valid-looking action from an attacker-origin sibling frame is ignored", async () => {
    const from = await mark(page);
    const attacker = siblingFrame(E2E.attackerUrl);
    await attacker.evaluate(
      (a) => (window as unknown as { __attack(...x: unknown[]): void }).__attack(...a),
      ["svc:action:set-color-scheme", { scheme: "dark" }, "sib-1", "*"],
    );
    await attacker.evaluate(
      (a) => (window as unknown as { __attack(...x: unknown[]): void }).__attack(...a),
      ["svc:action:set-color-scheme", { scheme: "dark" }, "sib-2", E2E.platformUrl],
    );
    await expect.poll(async () => (await seenOrigins()).filter((o) => o === E2E.attackerUrl).length).toBe(2);
    await expectIgnored(from, null);
    // Nothing was sent to the attacker either.
    expect(await attacker.evaluate(() => (window as unknown as { __events: unknown[] }).__events.length)).toBe(0);
    await expectStillWorking();
  });

  test("an action from a sibling frame on the allowed host origin is ignored (wrong sender window)", async () => {
    const from = await mark(page);
    const sibling = siblingFrame(E2E.hostUrl);
    const delivered = (await seenOrigins()).length;
    await sibling.evaluate(
      (a) => (window as unknown as { __attack(...x: unknown[]): void }).__attack(...a),
      ["svc:action:set-color-scheme", { scheme: "dark" }, "sib-3", E2E.platformUrl],
    );
    await expect.poll(async () => (await seenOrigins()).length).toBe(delivered + 1);
    expect((await seenOrigins()).at(-1)).toBe(E2E.hostUrl);
    await expectIgnored(from, null);
    expect(await sibling.evaluate(() => (window as unknown as { __events: unknown[] }).__events.length)).toBe(0);
    await expectStillWorking();
  });

  const silentCases: Array<[string, unknown]> = [
    ["a wrong source", { ...action("svc:action:set-color-scheme", DARK, "bad-source"), source: "svc-embed-x" }],
    ["no source", (({ source: _s, ...rest }) => rest)(action("svc:action:set-color-scheme", DARK, "no-source"))],
    ["a wrong direction", { ...action("svc:action:set-color-scheme", DARK, "bad-direction"), direction: "event" }],
    ["a non-object message (string)", "svc:action:set-color-scheme"],
    ["a non-object message (JSON text of a valid action)", JSON.stringify(action("svc:action:set-color-scheme", DARK, "json-text"))],
    ["a non-object message (number)", 42],
    ["a non-object message (null)", null],
    ["a non-object message (array)", [action("svc:action:set-color-scheme", DARK, "in-array")]],
    ["an unknown type without requestId", action("svc:action:self-destruct", {})],
    ["a malformed payload without requestId", action("svc:action:set-color-scheme", { scheme: "purple" })],
    ["an over-long requestId", action("svc:action:set-color-scheme", DARK, "r".repeat(129))],
  ];
  for (const [name, message] of silentCases) {
    test(`${name} is ignored without an answer`, async () => {
      const from = await mark(page);
      const delivered = (await seenOrigins()).length;
      await postRaw(page, message);
      await expect.poll(async () => (await seenOrigins()).length).toBe(delivered + 1);
      await expectIgnored(from, null);
      await expectStillWorking();
    });
  }

  const answeredCases: Array<[string, Record<string, unknown>, string]> = [
    ["an unknown type", action("svc:action:self-destruct", {}, "unknown-1"), "unknown-type"],
    ["a malformed payload (bad enum value)", action("svc:action:set-color-scheme", { scheme: "purple" }, "payload-1"), "invalid-payload"],
    ["a malformed payload (not an object)", action("svc:action:set-color-scheme", "dark", "payload-2"), "invalid-payload"],
    ["a malformed payload (missing field)", action("svc:action:set-locale", {}, "payload-3"), "invalid-payload"],
    ["an action that carries surface", { ...action("svc:action:set-color-scheme", DARK, "surface-1"), surface: "dashboard" }, "invalid-envelope"],
    ["an action with a non-numeric timestamp", { ...action("svc:action:set-color-scheme", DARK, "timestamp-1"), timestamp: "now" }, "invalid-envelope"],
  ];
  for (const [name, message, reason] of answeredCases) {
    test(`${name} is ignored and answered rejected/${reason}`, async () => {
      const from = await mark(page);
      await postRaw(page, message);
      await expectIgnored(from, { requestId: message.requestId as string, status: "rejected", reason });
      await expectStillWorking();
    });
  }

  test("after all of it the dashboard still works and only the embed ever wrote to the host", async () => {
    const frame = page.frameLocator("#embed");
    const from = await mark(page);
    expect((await requestAction(page, "svc:action:set-filter", { filterUrlParameter: 'f_sales.status={"value":["shipped"]}' })).status).toBe("applied");
    expect((await waitForEvent(page, "svc:event:filters-changed", { from })).payload.filterUrlParameters).toEqual(['f_sales.status={"value":["shipped"]}']);
    await expect(frame.getByTestId("widget-kpi_orders")).toHaveAttribute("data-state", "ready");
    await expectAllFromEmbed(page);
  });
});
