/**
 * `<svc-embed>` on a page without a framework: attributes in the markup, listeners for the
 * `svc-*` events, the action methods on the element.
 */
// In your app: import "svc/host/svc-embed";
import "../../../../../host/svc-embed";
import { COMPLETED_ORDERS, demoEmbed, logEvents } from "./demo-session";

const embed = document.querySelector("svc-embed")!;
const status = document.getElementById("status")!;
const result = document.getElementById("result")!;
const log = document.getElementById("log")!;

logEvents(embed, log);
embed.addEventListener(
  "svc-ready",
  (event) => (status.textContent = `Ready · ${event.detail.payload.mode} · tenant ${event.detail.payload.embedTenant ?? "none"}`),
);
embed.addEventListener("svc-error", (event) => (status.textContent = `Error: ${event.detail.payload.message}`));

document.getElementById("only-completed")!.addEventListener("click", async () => {
  const answer = await embed.setFilter(COMPLETED_ORDERS);
  result.textContent = `set-filter: ${answer.status}`;
});
document.getElementById("theme")!.addEventListener("change", (event) => {
  // A new attribute value becomes a set-color-scheme action: no reload.
  embed.setAttribute("theme", (event.target as HTMLSelectElement).value);
});

try {
  const { src, origin, session } = await demoEmbed();
  embed.setAttribute("origin", origin);
  embed.setAttribute("session", session);
  embed.setAttribute("src", src);
} catch (error) {
  status.textContent = `Could not start a session: ${String(error)}`;
}
