/**
 * `renews-session` and `actions-applied`: the frame announces that its session is about to expire
 * (posted from inside the platform's frame, as the embed itself does a minute before its token
 * expires), and every action that asked for a result is matched with the embed's answer.
 */
import { result, waitFor, type CheckedPage, type HostCheckResult } from "./page-session";

export async function checkRenewal(checked: CheckedPage): Promise<HostCheckResult> {
  const frame = await (await checked.page.$$("iframe"))[checked.frameIndex]?.contentFrame();
  if (!frame) return result("renews-session", "skip", "the frame is gone");
  const before = await checked.embed();
  if (!before) return result("renews-session", "skip", "the frame's document cannot be read");
  const hostOrigin = new URL(checked.page.url()).origin;
  const surface = (await checked.host()).messages.find((m) => m.type === "svc:event:ready" && m.frame === checked.frameIndex);
  const sentAt = Date.now();
  await frame.evaluate(
    ({ origin, surfaceName }) => {
      const expiresAt = Date.now() + 60_000;
      window.parent.postMessage(
        {
          source: "svc-embed",
          direction: "event",
          type: "svc:event:session-expiring",
          payload: { expiresAt, secondsLeft: 60 },
          timestamp: Date.now(),
          surface: surfaceName,
        },
        origin,
      );
    },
    { origin: hostOrigin, surfaceName: String((surface?.payload as { surface?: string } | null)?.surface ?? "dashboard") },
  );
  const swap = await waitFor(async () => (await checked.embed())?.messages.find((m) => m.type === "svc:action:set-session" && m.at >= sentAt), 10_000);
  if (!swap) return result("renews-session", "fail", "no svc:action:set-session within 10 s of svc:event:session-expiring: the viewer would be signed out");
  const after = await checked.embed();
  if (!after || after.marker !== before.marker)
    return result("renews-session", "fail", "the page reloaded the frame to renew the session: filters and scroll are lost");
  if (swap.requestId) {
    const answer = await waitFor(
      async () =>
        (await checked.host()).messages.find((m) => m.type === "svc:event:action-result" && (m.payload as { requestId?: string }).requestId === swap.requestId),
      10_000,
    );
    const status = (answer?.payload as { status?: string; reason?: string } | undefined) ?? undefined;
    if (status?.status !== "applied")
      return result(
        "renews-session",
        "fail",
        `svc:action:set-session was ${status?.status ?? "not answered"}${status?.reason ? ` (${status.reason})` : ""}: the new session was not taken`,
      );
  }
  return result("renews-session", "pass", `svc:action:set-session in ${Math.round((swap.at - sentAt) / 100) / 10} s, the frame kept (no reload)`);
}

export async function checkActions(checked: CheckedPage): Promise<HostCheckResult> {
  const asked = (await checked.embed())?.messages.filter((m) => m.type.startsWith("svc:action:") && m.requestId) ?? [];
  if (!asked.length) return result("actions-applied", "pass", "no action asked for a result during the check");
  const answers = await waitFor(async () => {
    const results = (await checked.host()).messages.filter((m) => m.type === "svc:event:action-result");
    const byId = new Map(results.map((m) => [(m.payload as { requestId?: string }).requestId, m.payload as { status?: string; reason?: string }]));
    return asked.every((a) => byId.has(a.requestId!)) ? byId : undefined;
  }, 5000);
  const bad = asked
    .map((a) => ({ type: a.type, answer: answers?.get(a.requestId!) }))
    .filter((a) => a.answer?.status !== "applied")
    .map((a) => `${a.type}: ${a.answer ? `${a.answer.status}${a.answer.reason ? ` (${a.answer.reason})` : ""}` : "no answer"}`);
  return bad.length ? result("actions-applied", "fail", bad.join("; ")) : result("actions-applied", "pass", `${asked.length} action(s), each applied`);
}
