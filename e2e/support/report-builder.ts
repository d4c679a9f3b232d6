import type { FrameLocator, Page, Request } from "@playwright/test";
import { E2E } from "./env";
import { generateSession, getDemoConfig, openEmbedInHost } from "./embed-harness";

/**
 * The creator app of an acme creator in a host page of `size`, a new workbook and in it a new
 * report open in the builder; the report saves and the `/query` requests are recorded from
 * the start.
 */
export async function newReportInApp(page: Page, size: { width: number; height: number }, names: { workbook: string; report: string }) {
  const saves: Request[] = [];
  const queries: Request[] = [];
  page.on("request", (r) => {
    if (r.method() === "PUT" && r.url().includes("/reports/by-public-id/")) saves.push(r);
    if (r.method() === "POST" && /\/query$/.test(new URL(r.url()).pathname)) queries.push(r);
  });
  const { deploymentId } = await getDemoConfig(page.request);
  const src = new URL(`/embed/d/${deploymentId}/app`, E2E.platformUrl);
  src.searchParams.set("session", await generateSession(page.request, { externalId: "ada@acme.example", embedTenantName: "acme-corp", creatorMode: true }));
  const app: FrameLocator = await openEmbedInHost(page, src.toString(), size);
  await app.getByTestId("new-workbook").click();
  await app.getByTestId("name-input").fill(`${names.workbook} ${Date.now().toString(36)}`);
  await app.getByTestId("name-submit").click();
  await app.getByRole("button", { name: "Create a report" }).click();
  await app.getByTestId("name-input").fill(names.report);
  await app.getByTestId("name-submit").click();
  return { app, builder: app.getByTestId("report-builder"), result: app.getByTestId("report-result"), saves, queries };
}
