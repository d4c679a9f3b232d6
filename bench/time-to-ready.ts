/**
 * Time to ready of the demo dashboard against its floor, and against a blank page.
 *   npm run build && npx tsx bench/time-to-ready.ts [--runs 12] [--json]
 * On the allowed host page (127.0.0.1), from setting the iframe's src to `svc:event:ready`.
 * - embed: the demo dashboard with a fresh signed session each time (created beforehand);
 * - floor (the goal's baseline): a framework-free page served by the same platform server
 *   that does the embed's round trips before `ready` (the `session` → token exchange) and
 *   posts the same `ready` message (bench/floor-page.ts explains how it is served: a file
 *   the bench writes into the built embed assets for the run, no product route);
 * - blank (second baseline): the frame's `load` event for a tiny response of the same server
 *   (an unrouted path: a 56-byte JSON body), no round trip after it.
 * Cold: a new browser context each run (empty HTTP cache, new connections). Warm: one
 * context, after a first load of each primed the cache. Goal: embed ≤ 1.5× the floor.
 */
import type { BrowserContext, Page } from "@playwright/test";
import type { ReadyPayload } from "../src/protocol";
import { arg, fmt, KEEP_NAMES_SHIM, quantile, startBenchRig, type BenchRig } from "./bridge-rig";
import { figure, printFigures, ratioAtMost, say, type Figure } from "./figures";
import { installFloorPage, type FloorPage } from "./floor-page";

const runs = arg("runs", 12);

type Kind = "embed" | "floor" | "blank";
const KINDS: readonly Kind[] = ["embed", "floor", "blank"];

/** Sets the host page's iframe src; resolves with ms until ready (or load) and the ready payload. */
function timeLoad(page: Page, src: string, until: "ready" | "load"): Promise<{ ms: number; payload: ReadyPayload | null }> {
  return page.evaluate(
    ({ src, until }) =>
      new Promise<{ ms: number; payload: ReadyPayload | null }>((resolve, reject) => {
        const iframe = document.getElementById("embed") as HTMLIFrameElement;
        const timer = setTimeout(() => reject(new Error(`no ${until} within 60 s`)), 60_000);
        let t0 = 0;
        const finish = (payload: ReadyPayload | null) => {
          clearTimeout(timer);
          resolve({ ms: performance.now() - t0, payload });
        };
        if (until === "load") {
          iframe.addEventListener("load", () => finish(null), { once: true });
        } else {
          const onMessage = (e: MessageEvent) => {
            const data = e.data as { type?: string; payload?: ReadyPayload } | null;
            if (e.source !== iframe.contentWindow || data?.type !== "svc:event:ready") return;
            window.removeEventListener("message", onMessage);
            finish(data.payload ?? null);
          };
          window.addEventListener("message", onMessage);
        }
        t0 = performance.now();
        iframe.src = src;
      }),
    { src, until },
  );
}

async function hostPage(context: BrowserContext, bench: BenchRig): Promise<Page> {
  const page = await context.newPage();
  await page.addInitScript(KEEP_NAMES_SHIM);
  await page.goto(`${bench.addresses.hostUrl}/host.html`);
  return page;
}

async function main() {
  const bench = await startBenchRig();
  const blank = `${bench.addresses.platformUrl}/bench-blank-frame`;
  let floor: FloorPage | null = null;
  try {
    // One embed load first: its `ready` payload is the shape the floor page posts.
    const first = await bench.browser.newContext();
    const { payload } = await timeLoad(await hostPage(first, bench), await bench.dashboardSrc(), "ready");
    await first.close();
    if (!payload) throw new Error("the embed's ready carried no payload");
    floor = installFloorPage(bench.addresses.platformUrl, new URL(bench.addresses.hostUrl).origin, payload);
    const installed = floor;

    const srcOf = async (kind: Kind, tag: string) =>
      kind === "embed" ? bench.dashboardSrc() : kind === "floor" ? installed.src(await bench.session()) : `${blank}?${tag}`;
    const measure = async (page: Page, kind: Kind, tag: string) => (await timeLoad(page, await srcOf(kind, tag), kind === "blank" ? "load" : "ready")).ms;

    const cold: Record<Kind, number[]> = { embed: [], floor: [], blank: [] };
    const warm: Record<Kind, number[]> = { embed: [], floor: [], blank: [] };
    // Cold: every measurement in a context of its own. The three kinds alternate.
    for (let i = 0; i < runs; i++) {
      for (const kind of KINDS) {
        const context = await bench.browser.newContext();
        cold[kind].push(await measure(await hostPage(context, bench), kind, `cold=${i}`));
        await context.close();
      }
    }
    // Warm: one context; the first load of each primes the cache and is not counted.
    const context = await bench.browser.newContext();
    const page = await hostPage(context, bench);
    for (const kind of KINDS) await measure(page, kind, "warm=prime");
    for (let i = 0; i < runs; i++) for (const kind of KINDS) warm[kind].push(await measure(page, kind, `warm=${i}`));
    await context.close();

    say(`time to ready, ${runs} runs each, p50 (p90)`);
    const figures: Figure[] = [];
    for (const [name, m] of [
      ["cold", cold],
      ["warm", warm],
    ] as const) {
      const [e50, f50, b50] = KINDS.map((k) => quantile(m[k], 0.5)) as [number, number, number];
      const p90 = (k: Kind) => fmt(quantile(m[k], 0.9));
      say(
        `  ${name}: dashboard ready ${fmt(e50)} (${p90("embed")})   floor page ready ${fmt(f50)} (${p90("floor")})   blank iframe load ${fmt(b50)} (${p90("blank")})`,
      );
      say(
        `  ${name}: ratio vs floor ${(e50 / f50).toFixed(2)}× (goal ≤ 1.5×)   vs blank ${(e50 / b50).toFixed(2)}×   floor vs blank ${(f50 / b50).toFixed(2)}×`,
      );
      figures.push(figure(`time to ready p50, ${name}, vs floor page`, e50, "ms", { baseline: f50, goal: ratioAtMost(1.5) }));
      figures.push(figure(`time to ready p50, ${name}, vs blank iframe load`, e50, "ms", { baseline: b50 }));
    }
    printFigures("time-to-ready", figures);
  } finally {
    floor?.remove();
    await bench.close();
  }
}

await main();
