import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MissingTranslationReport } from "../../schema/content-translation";
import { silentLogger } from "../logger";
import { embedSession } from "../testing/shop-deployment";
import { createTestPlatform, type TestPlatform } from "../testing/test-platform";
import { seedDemo, type DemoSeedResult } from "./seed";

const shippedLocales = readdirSync(fileURLToPath(new URL("./data-model/translations", import.meta.url)))
  .filter((f) => f.endsWith(".yml"))
  .map((f) => f.replace(/\.yml$/, ""))
  .sort();

describe("demo content translations", () => {
  let t: TestPlatform;
  let dir: string;
  let seeded: DemoSeedResult;
  beforeAll(async () => {
    t = await createTestPlatform();
    dir = mkdtempSync(path.join(tmpdir(), "svc-demo-translations-"));
    seeded = (await seedDemo({ db: t.database.db, dataDir: dir, rows: 2000, adminUserId: t.adminUserId, demoHostOrigin: null, logger: silentLogger }))!;
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("ships a German and a Spanish dictionary with the demo model", async () => {
    expect(shippedLocales).toEqual(expect.arrayContaining(["de-DE", "es-ES"]));
    const res = await t.api("GET", `/api/v1/deployments/${seeded.deploymentId}/translations`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { locales: { locale: string }[] }).locales.map((l) => l.locale).sort()).toEqual(shippedLocales);
  });

  it.each(shippedLocales)("has an entry for every text, member and value of the demo content in %s", async (locale) => {
    const res = await t.api("GET", `/api/v1/deployments/${seeded.deploymentId}/translations/${locale}/missing`);
    expect(res.status).toBe(200);
    const report = (await res.json()) as MissingTranslationReport;
    expect(report.total).toBeGreaterThan(50);
    expect(report.missing).toEqual([]);
  });

  it("shows the demo dashboard and its answers in German to a viewer whose session is German", async () => {
    const { token } = await embedSession(t, seeded.deploymentId, { externalId: "ute@acme.test", embedTenantName: "acme-corp", settings: { locale: "de-DE" } });
    const res = await t.api("GET", `/api/v1/embed/dashboard/${seeded.dashboardPublicId}`, undefined, token);
    expect(res.status).toBe(200);
    const { dashboard } = (await res.json()) as {
      dashboard: { config: { title: string; widgets: { id: string; config: Record<string, unknown> }[] }; reportSnapshots: { title: string }[] };
    };
    expect(dashboard.config.title).toBe("Verkaufsübersicht");
    const labels = Object.fromEntries(dashboard.config.widgets.map((w) => [w.id, w.config.label]));
    expect(labels).toMatchObject({ filter_status: "Status", filter_country: "Land", filter_date: "Bestelldatum", grain: "Zeitraster" });
    expect(dashboard.reportSnapshots.map((s) => s.title)).toEqual(expect.arrayContaining(["Umsatz", "Städte nach Umsatz"]));

    const query = await t.api(
      "POST",
      `/api/v1/deployments/${seeded.deploymentId}/query`,
      { query: { measures: ["sales.revenue"], dimensions: ["sales.status", "sales.customers_country"] } },
      token,
    );
    expect(query.status).toBe(200);
    const body = (await query.json()) as {
      data: Record<string, unknown>[];
      annotation: {
        measures: Record<string, { shortTitle: string }>;
        dimensions: Record<string, { shortTitle: string; valueLabels?: Record<string, string> }>;
      };
    };
    expect(body.annotation.measures["sales.revenue"]!.shortTitle).toBe("Umsatz");
    expect(body.annotation.dimensions["sales.status"]!.valueLabels).toMatchObject({ completed: "abgeschlossen", shipped: "versandt" });
    expect(body.annotation.dimensions["sales.customers_country"]!.valueLabels).toMatchObject({ DE: "Deutschland", US: "Vereinigte Staaten" });
    // Rows keep the raw values the filters use.
    expect(body.data.map((r) => r["sales.status"])).toContain("completed");
    expect(body.data.map((r) => r["sales.customers_country"])).toContain("DE");

    const values = await t.api("POST", `/api/v1/deployments/${seeded.deploymentId}/query/values`, { member: "sales.customers_country" }, token);
    const picked = (await values.json()) as { values: string[]; labels: Record<string, string> };
    expect(picked.values).toContain("DE");
    expect(picked.labels).toMatchObject({ DE: "Deutschland" });
    expect(Object.keys(picked.labels).every((code) => picked.values.includes(code))).toBe(true);
  });

  it("follows the locale a request names over the session's, and labels nothing without one", async () => {
    const { token } = await embedSession(t, seeded.deploymentId, { externalId: "ana@acme.test", embedTenantName: "acme-corp", settings: { locale: "de-DE" } });
    const spanish = await t.api("GET", `/api/v1/embed/dashboard/${seeded.dashboardPublicId}?locale=es`, undefined, token);
    const inSpanish = (await spanish.json()) as { dashboard: { config: { title: string } }; contentLocale: string };
    expect(inSpanish).toMatchObject({ contentLocale: "es", dashboard: { config: { title: "Resumen de ventas" } } });
    const values = await t.api("POST", `/api/v1/deployments/${seeded.deploymentId}/query/values`, { member: "sales.status", locale: "es-MX" }, token);
    expect(((await values.json()) as { labels: Record<string, string> }).labels).toMatchObject({ completed: "completado" });
    const plain = await t.api("POST", `/api/v1/deployments/${seeded.deploymentId}/query`, { query: { measures: ["sales.revenue"] } });
    expect(
      ((await plain.json()) as { annotation: { measures: Record<string, { shortTitle: string }> } }).annotation.measures["sales.revenue"]!.shortTitle,
    ).toBe("Revenue");
    const bad = await t.api("POST", `/api/v1/deployments/${seeded.deploymentId}/query`, { query: { measures: ["sales.revenue"] }, locale: "<script>" }, token);
    expect(bad.status).toBe(400);
  });
  it("titles worked-out columns in the viewer's language: two quarters side by side, a share, a part of time", async () => {
    const { token } = await embedSession(t, seeded.deploymentId, { externalId: "eva@acme.test", embedTenantName: "acme-corp", settings: { locale: "es-ES" } });
    const titles = async (query: Record<string, unknown>) => {
      const res = await t.api("POST", `/api/v1/deployments/${seeded.deploymentId}/query`, { query }, token);
      expect(res.status, await res.clone().text()).toBe(200);
      const { annotation } = (await res.json()) as { annotation: Record<string, Record<string, { shortTitle: string }> | undefined> };
      return Object.fromEntries(Object.values(annotation).flatMap((group) => Object.entries(group ?? {}).map(([key, a]) => [key, a.shortTitle])));
    };
    expect(
      await titles({
        measures: ["sales.revenue"],
        dimensions: ["sales.products_category"],
        compare: { dimension: "sales.created_at", baseline: ["2024-01-01", "2024-03-31"], current: ["2025-01-01", "2025-03-31"] },
      }),
    ).toMatchObject({
      "sales.revenue.baseline": "Ingresos (T1 2024)",
      "sales.revenue.current": "Ingresos (T1 2025)",
      "sales.revenue.change": "Ingresos (variación)",
      "sales.revenue.relativeChange": "Ingresos (variación en %)",
    });
    expect(
      await titles({
        measures: ["sales.revenue"],
        timeDimensions: [{ dimension: "sales.created_at", part: "dayOfWeek" }],
        calculations: [{ type: "percentOfTotal", measure: "sales.revenue" }],
      }),
    ).toMatchObject({
      "sales.revenue": "Ingresos",
      "sales.revenue.percentOfTotal": "Ingresos (parte del total)",
      "sales.created_at.dayOfWeek": "Fecha del pedido (día de la semana)",
    });
  });

  it("names the columns of a chat answer in the viewer's language", async () => {
    const { token } = await embedSession(t, seeded.deploymentId, { externalId: "chat-de", embedTenantName: "acme-corp", settings: { locale: "de-DE" } });
    const thread = (await (await t.api("POST", `/api/v1/deployments/${seeded.deploymentId}/chat/threads`, {}, token)).json()) as { id: string };
    const res = await t.api("POST", `/api/v1/deployments/${seeded.deploymentId}/chat/threads/${thread.id}/messages`, { content: "Umsatz nach Land" }, token);
    expect(res.status).toBe(200);
    const lines = (await res.text())
      .trim()
      .split("\n")
      .map(
        (l) =>
          JSON.parse(l) as {
            type?: string;
            columns?: { key: string; title: string; valueLabels?: Record<string, string> }[];
            rows?: Record<string, unknown>[];
          },
      );
    const table = lines.find((l) => l.type === "table");
    expect(table?.columns?.find((c) => c.key === "sales.revenue")?.title).toBe("Umsatz");
    expect(table?.columns?.map((c) => c.title)).not.toContain("Revenue");
    // Countries by their German names for the table's cells; the rows keep the codes.
    const country = table?.columns?.find((c) => c.key === "sales.customers_country");
    expect(country?.valueLabels).toMatchObject({ DE: "Deutschland", GB: "Vereinigtes Königreich" });
    expect(table?.rows?.map((r) => r["sales.customers_country"])).toContain("DE");
    // The reading of the question names the members in German too.
    const reading = lines.find((l) => l.type === "text") as { text?: string } | undefined;
    expect(reading?.text).toMatch(/\*\*Umsatz\*\*, nach Land/);
  });
  it("names dimension values in the chat's sentences in the viewer's language", async () => {
    const answer = async (locale: string, question: string) => {
      const { token } = await embedSession(t, seeded.deploymentId, { externalId: `chat-values-${locale}`, embedTenantName: "acme-corp", settings: { locale } });
      const thread = (await (await t.api("POST", `/api/v1/deployments/${seeded.deploymentId}/chat/threads`, {}, token)).json()) as { id: string };
      const res = await t.api("POST", `/api/v1/deployments/${seeded.deploymentId}/chat/threads/${thread.id}/messages`, { content: question }, token);
      expect(res.status).toBe(200);
      const texts = (await res.text())
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l) as { type?: string; text?: string })
        .filter((l) => l.type === "text");
      return texts.map((l) => l.text).join("\n");
    };
    // Statuses by the dictionary's values, the filter of the reading too.
    const german = await answer("de-DE", "Umsatz nach Status");
    expect(german).toMatch(/\*\*abgeschlossen\*\* liegt bei Umsatz vorn/);
    expect(german).not.toMatch(/\b(completed|shipped|cancelled)\b/);
    // Countries by name in Spanish (Intl.DisplayNames), not as ISO codes.
    const spanish = await answer("es-ES", "ingresos por país");
    expect(spanish).toMatch(/\*\*Estados Unidos\*\* encabeza Ingresos/);
    expect(spanish).not.toMatch(/\*\*US\*\*/);
  });
});
