/**
 * Action round trip through the embed bridge against a raw postMessage ping-pong.
 *   npm run build && npx tsx bench/bridge-roundtrip.ts [--runs 400] [--warmup 40] [--json]
 * One host page (allowed origin, 127.0.0.1) frames the real dashboard embed (localhost, the
 * platform) and a blank echo page (localhost, another port): both cross-site, so both
 * out-of-process. Interleaved, it times `set-color-scheme` with a requestId until its
 * `action-result` arrives, and a message to the echo frame until it comes back. Goal:
 * p50 ≤ 2×, p99 ≤ 3× the raw ping-pong.
 */
import { arg, fmt, KEEP_NAMES_SHIM, quantile, startBenchRig } from "./bridge-rig";
import { figure, printFigures, ratioAtMost, say } from "./figures";

const runs = arg("runs", 400);
const warmup = arg("warmup", 40);

async function main() {
  const bench = await startBenchRig();
  try {
    const { addresses } = bench;
    const page = await bench.browser.newPage();
    await page.addInitScript(KEEP_NAMES_SHIM);
    await page.goto(`${addresses.hostUrl}/host.html?embed=${encodeURIComponent(await bench.dashboardSrc())}`);
    await page.waitForFunction(
      () => (window as unknown as { __events: Array<{ data: { type?: string } }> }).__events.some((e) => e.data?.type === "svc:event:dashboard-loaded"),
      undefined,
      { timeout: 60_000 },
    );
    // Let late chart draws and resize reports finish before timing.
    await page.waitForTimeout(1500);

    const result = await page.evaluate(
      async ({ platform, echo, runs, warmup }) => {
        const embed = (document.getElementById("embed") as HTMLIFrameElement).contentWindow!;
        const echoFrame = document.createElement("iframe");
        echoFrame.src = `${echo}/echo.html`;
        document.body.append(echoFrame);
        await new Promise((resolve) => echoFrame.addEventListener("load", resolve, { once: true }));
        const echoWindow = echoFrame.contentWindow!;

        let waiting: { match: (e: MessageEvent) => boolean; done: () => void } | null = null;
        window.addEventListener("message", (e) => {
          if (waiting && waiting.match(e)) {
            const w = waiting;
            waiting = null;
            w.done();
          }
        });
        const roundTrip = (send: () => void, match: (e: MessageEvent) => boolean) =>
          new Promise<number>((resolve) => {
            const t0 = performance.now();
            waiting = { match, done: () => resolve(performance.now() - t0) };
            send();
          });

        const raw: number[] = [];
        const bridge: number[] = [];
        for (let i = 0; i < warmup + runs; i++) {
          const ping = `ping-${i}`;
          const rawMs = await roundTrip(
            () => echoWindow.postMessage({ ping }, echo),
            (e) => e.origin === echo && e.source === echoWindow && (e.data as { ping?: string })?.ping === ping,
          );
          const requestId = `bench-${i}`;
          const bridgeMs = await roundTrip(
            () =>
              embed.postMessage(
                {
                  source: "svc-embed",
                  direction: "action",
                  type: "svc:action:set-color-scheme",
                  payload: { scheme: i % 2 ? "dark" : "light" },
                  timestamp: Date.now(),
                  requestId,
                },
                platform,
              ),
            (e) =>
              e.origin === platform &&
              e.source === embed &&
              (e.data as { type?: string; payload?: { requestId?: string } })?.type === "svc:event:action-result" &&
              (e.data as { payload: { requestId: string } }).payload.requestId === requestId,
          );
          if (i >= warmup) {
            raw.push(rawMs);
            bridge.push(bridgeMs);
          }
        }
        return { raw, bridge };
      },
      { platform: addresses.platformUrl, echo: addresses.echoUrl, runs, warmup },
    );

    const rawP50 = quantile(result.raw, 0.5);
    const rawP99 = quantile(result.raw, 0.99);
    const bridgeP50 = quantile(result.bridge, 0.5);
    const bridgeP99 = quantile(result.bridge, 0.99);
    say(`bridge round trip, ${runs} runs each (after ${warmup} warm-up), interleaved`);
    say(`  raw ping-pong (blank cross-site iframe):   p50 ${fmt(rawP50)}  p99 ${fmt(rawP99)}`);
    say(`  set-color-scheme → action-result (embed):  p50 ${fmt(bridgeP50)}  p99 ${fmt(bridgeP99)}`);
    say(`  ratio p50 ${(bridgeP50 / rawP50).toFixed(2)}× (goal ≤ 2×)   p99 ${(bridgeP99 / rawP99).toFixed(2)}× (goal ≤ 3×)`);
    printFigures("bridge-roundtrip", [
      figure("bridge round trip p50 vs raw postMessage ping-pong", bridgeP50, "ms", { baseline: rawP50, goal: ratioAtMost(2) }),
      figure("bridge round trip p99 vs raw postMessage ping-pong", bridgeP99, "ms", { baseline: rawP99, goal: ratioAtMost(3) }),
    ]);
  } finally {
    await bench.close();
  }
}

await main();
