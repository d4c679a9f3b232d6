/**
 * What the checks of `svc host-check` share: the report's types, a rule's result, waiting, and a
 * host page opened with its first svc frame found.
 */
import type { BrowserContext, Page } from "playwright-core";
import type { Observation } from "./observer";
import { HOST_CHECK_RULES, type HostCheckRuleId } from "./rules";

export type HostCheckStatus = "pass" | "fail" | "skip";

export interface HostCheckResult {
  id: HostCheckRuleId;
  title: string;
  status: HostCheckStatus;
  reason: string;
  /** How to fix it (failures only). */
  fix?: string;
}

export interface HostCheckReport {
  url: string;
  ok: boolean;
  /** The svc frames found on the page (the first is the one checked). */
  frames: { index: number; src: string }[];
  results: HostCheckResult[];
}

export interface HostCheckOptions {
  /** How long to wait for the embed's `ready`; default 20 000 ms. */
  timeoutMs?: number;
  /** Only frames of this origin count as svc frames; default any frame on an `/embed/` path. */
  platformOrigin?: string;
}

/** The page under check: the page, its svc frame and what the observer saw. */
export interface CheckedPage {
  page: Page;
  frameIndex: number;
  platformOrigin: string;
  host: () => Promise<Observation>;
  embed: () => Promise<Observation | null>;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `probe` every 200 ms until it answers something other than undefined, or the time is up. */
export async function waitFor<T>(probe: () => Promise<T | undefined>, timeoutMs: number): Promise<T | undefined> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined || Date.now() >= until) return value;
    await sleep(200);
  }
}

export function result(id: HostCheckRuleId, status: HostCheckStatus, reason: string): HostCheckResult {
  const rule = HOST_CHECK_RULES.find((r) => r.id === id)!;
  return { id, title: rule.title, status, reason, ...(status === "fail" ? { fix: rule.fix } : {}) };
}

/** Opens `url` in a new page of `context` and finds its first svc frame. */
export async function openHostPage(context: BrowserContext, url: string, options: HostCheckOptions, refusals: string[] = []) {
  const page = await context.newPage();
  page.on("console", (m) => {
    if (/frame-ancestors|Refused to frame/i.test(m.text())) refusals.push(m.text());
  });
  await page.goto(url, { waitUntil: "load", timeout: options.timeoutMs ?? 20_000 });
  const frames =
    (await waitFor(async () => {
      const all = await page.$$eval("iframe", (els) => els.map((f, index) => ({ index, src: (f as HTMLIFrameElement).src })));
      const svc = all.filter((f) => isSvcFrame(f.src, options.platformOrigin));
      return svc.length ? svc : undefined;
    }, 5000)) ?? [];
  const first = frames[0];
  const checked: CheckedPage | null = first
    ? {
        page,
        frameIndex: first.index,
        platformOrigin: new URL(first.src).origin,
        host: () => page.evaluate(() => window.__svcHostCheck!),
        embed: async () => {
          const frame = await (await page.$$("iframe"))[first.index]?.contentFrame();
          return (await frame?.evaluate(() => window.__svcHostCheck ?? null).catch(() => null)) ?? null;
        },
      }
    : null;
  return { page, frames, checked };
}

function isSvcFrame(src: string, platformOrigin: string | undefined): boolean {
  try {
    const url = new URL(src);
    return url.pathname.startsWith("/embed/") && (!platformOrigin || url.origin === platformOrigin);
  } catch {
    return false;
  }
}
