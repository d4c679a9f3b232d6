import { readFileSync, writeFileSync } from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { openHost, waitForEvent, waitForWidgetsSettled } from "./support/embed-harness";

// The dashboard PDF as vector pages (docs/translation.md "Exports", decisions.md "PDF export:
// vector pages and their font"): the titles, the filters in effect and every table row are
// text a PDF reader extracts; the file stays small; a German viewer gets German pages.

async function pdfText(file: Buffer): Promise<string[]> {
  const pdfjs = await import("pdfjs-dist/legacy/build/pdf.mjs");
  const document = await pdfjs.getDocument({ data: new Uint8Array(file), useSystemFonts: false }).promise;
  const pages: string[] = [];
  for (let n = 1; n <= document.numPages; n++) {
    const content = await (await document.getPage(n)).getTextContent();
    pages.push(content.items.map((item) => ("str" in item ? item.str : "")).join(" "));
  }
  return pages;
}

async function downloadPdf(page: Page, params: Record<string, string>): Promise<Buffer> {
  await openHost(page, { params: { allowExport: "true", ...params } });
  await waitForEvent(page, "svc:event:dashboard-loaded");
  await waitForWidgetsSettled(page);
  const button = page.frameLocator("#embed").getByTestId("export-pdf-dashboard");
  const [download] = await Promise.all([page.waitForEvent("download", { timeout: 45_000 }), button.click()]);
  expect(download.suggestedFilename()).toMatch(/\.pdf$/);
  const file = readFileSync((await download.path())!);
  if (process.env.SVC_PDF_OUT) writeFileSync(`${process.env.SVC_PDF_OUT}-${params.locale ?? "en"}.pdf`, file);
  return file;
}

test.describe("the dashboard PDF", () => {
  test("is vector pages: titles, filters, chart labels and every table row are text; under 1 MB", async ({ page }) => {
    const file = await downloadPdf(page, { "f_sales.status": JSON.stringify({ value: ["completed"] }) });
    expect(file.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    expect(file.length).toBeLessThan(1_000_000);
    const pages = await pdfText(file);
    const text = pages.join("\n");
    expect(text).toContain("Sales overview");
    expect(text).toMatch(/Filters: .*Status: completed/);
    // Widget titles, the text and AI widgets' text.
    for (const title of [
      "Revenue",
      "Revenue over time",
      "Revenue by category",
      "Where revenue comes from",
      "Cities by revenue",
      "Highlights",
      "Welcome",
      "For Sales Status: completed",
    ])
      expect(text).toContain(title);
    // Every row of a table, also those below its scroll fold: the Cities table's first and last.
    expect(text).toMatch(/New York\s+United States\s+\$[\d,]+/);
    expect(text).toMatch(/Stockholm\s+Sweden/);
    // Chart axes are text as well (a category of the bar chart).
    expect(text).toContain("Electronics");
  });

  test("a German viewer gets German pages", async ({ page }) => {
    const file = await downloadPdf(page, { locale: "de" });
    expect(file.length).toBeLessThan(1_000_000);
    const text = (await pdfText(file)).join("\n");
    for (const german of [
      "Verkaufsübersicht",
      "Filter: Alle",
      "Willkommen",
      "nur für Ihre Organisation",
      "Umsatz im Zeitverlauf",
      "Städte nach Umsatz",
      "Vereinigte Staaten",
      "Abschlussquote",
    ])
      expect(text).toContain(german);
    expect(text).not.toContain("Revenue over time");
  });
});

test("a Japanese viewer gets the picture of the dashboard in a PDF (the PDF's font has no Japanese)", async ({ page }) => {
  const file = await downloadPdf(page, { locale: "ja" });
  expect(file.subarray(0, 5).toString("latin1")).toBe("%PDF-");
  const text = (await pdfText(file)).join("\n");
  expect(text).toContain("Sales overview");
  expect(text).not.toContain("New York");
});
