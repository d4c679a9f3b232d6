/**
 * The viewer's own time zone, read once per page: reading it builds the page's first
 * Intl.DateTimeFormat, which costs tens of ms while the engine loads its data. The dashboard's
 * data loader reads it while the dashboard's definition is on its way, so the widgets' first
 * queries do not wait for it.
 */
let zone: string | null = null;

export function viewerTimeZone(): string {
  return (zone ??= Intl.DateTimeFormat().resolvedOptions().timeZone);
}
