/**
 * The DOM operations Angular's renderer performs for the `SalesDashboardComponent` of
 * docs/embedding.md ("Angular"), one by one, so that a browser test covers the element as an
 * Angular app uses it without shipping Angular:
 *
 *   <svc-embed #embed label="Sales dashboard" locale="en-US"
 *              [src]="src" [origin]="origin" [session]="session" [theme]="theme"
 *              (svc-ready)="onReady($event)" (svc-error)="onError($event)"></svc-embed>
 *
 * Static attributes become attributes, `[x]` bindings become property writes (CUSTOM_ELEMENTS_SCHEMA
 * lets them through), `(svc-…)` bindings become `addEventListener`, and `@ViewChild("embed")`
 * hands the component the element itself for its methods.
 */
// In your app: import "svc/host/svc-embed"; (once, e.g. in main.ts)
import "../../../../../host/svc-embed";
import type { SvcEmbedEventMap } from "../../../../../host/svc-embed";
import { COMPLETED_ORDERS, demoEmbed, logEvents } from "./demo-session";

const status = document.getElementById("status")!;
const result = document.getElementById("result")!;
const log = document.getElementById("log")!;

/** The component's fields and handlers. */
const component = {
  theme: "light",
  onReady(event: SvcEmbedEventMap["svc-ready"]) {
    status.textContent = `Ready · ${event.detail.payload.mode} · tenant ${event.detail.payload.embedTenant ?? "none"}`;
  },
  onError(event: SvcEmbedEventMap["svc-error"]) {
    status.textContent = `Error: ${event.detail.payload.message}`;
  },
};

// Renderer2.createElement + setAttribute (static attributes) + listen (event bindings).
const embed = document.createElement("svc-embed");
embed.setAttribute("label", "Sales dashboard");
embed.setAttribute("locale", "en-US");
embed.addEventListener("svc-ready", (event) => component.onReady(event));
embed.addEventListener("svc-error", (event) => component.onError(event));
logEvents(embed, log);

// (click)="onlyCompleted()": `this.embed.nativeElement.setFilter(...)` through @ViewChild.
document.getElementById("only-completed")!.addEventListener("click", async () => {
  const answer = await embed.setFilter(COMPLETED_ORDERS);
  result.textContent = `set-filter: ${answer.status}`;
});
// [(ngModel)]="theme" on the select; change detection then writes the [theme] binding.
document.getElementById("theme")!.addEventListener("change", (event) => {
  component.theme = (event.target as HTMLSelectElement).value;
  embed.theme = component.theme;
});

try {
  const { src, origin, session } = await demoEmbed();
  // First change detection: the [src], [origin], [session], [theme] property bindings, then insertion.
  embed.src = src;
  embed.origin = origin;
  embed.session = session;
  embed.theme = component.theme;
  document.getElementById("host")!.append(embed);
} catch (error) {
  status.textContent = `Could not start a session: ${String(error)}`;
}
