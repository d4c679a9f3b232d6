/**
 * Signed-mode token lifetime: `session-expiring` a minute before the token expires, the
 * host's `set-session` swaps the token without a reload, and an expired token ends the
 * surface with a fatal `SessionExpired`.
 */

/** Seconds before expiry at which `session-expiring` goes out. */
export const SESSION_WARNING_SECONDS = 60;

export interface SessionTimerCallbacks {
  onExpiring(expiresAt: number, secondsLeft: number): void;
  onExpired(): void;
}

/** Schedules the warning and the expiry for a token; returns a function that cancels both. */
export function scheduleSessionTimers(expiresAt: number | null, callbacks: SessionTimerCallbacks, now: () => number = Date.now): () => void {
  if (expiresAt === null) return () => {};
  const timers: ReturnType<typeof setTimeout>[] = [];
  // setTimeout holds at most ~24.8 days; tokens live at most 24 h.
  const clamp = (ms: number) => Math.min(Math.max(0, ms), 2_000_000_000);
  const left = expiresAt - now();
  const warnIn = left - SESSION_WARNING_SECONDS * 1000;
  timers.push(
    setTimeout(() => callbacks.onExpiring(expiresAt, Math.max(0, Math.round((expiresAt - now()) / 1000))), clamp(warnIn)),
    setTimeout(() => callbacks.onExpired(), clamp(left)),
  );
  return () => timers.forEach(clearTimeout);
}
