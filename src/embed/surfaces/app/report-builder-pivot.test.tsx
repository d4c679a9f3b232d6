// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import type { MetaSource } from "./app-api";
import { ReportBuilder } from "./report-builder";
import { ORDERS_REPORT, renderInApp, type Platform, type RecordedRequest } from "./report-builder-fixtures";
import { AUTOSAVE_DELAY_MS } from "./use-report-draft";

afterEach(cleanup);

const VIEW: MetaSource = {
  name: "orders",
  kind: "view",
  title: "Orders",
  measures: [
    { name: "orders.count", title: "Orders Count", shortTitle: "Count", type: "number", measureType: "count" },
    { name: "orders.avg_amount", title: "Average amount", shortTitle: "Average amount", type: "number", measureType: "avg" },
  ],
  dimensions: [
    { name: "orders.status", title: "Status", shortTitle: "Status", type: "string" },
    { name: "orders.country", title: "Country", shortTitle: "Country", type: "string" },
    { name: "orders.created_at", title: "Created at", shortTitle: "Created at", type: "time" },
  ],
};

const ROWS = [
  { "orders.status": "done", "orders.country": "DE", "orders.count": 3 },
  { "orders.status": "done", "orders.country": "FR", "orders.count": 1 },
  { "orders.status": "open", "orders.country": "DE", "orders.count": 4 },
];

/** Answers a query with the rows of its dimensions, and a share of the total when it asks for one. */
const platform: Platform = (r) => {
  if (r.path.endsWith("/meta")) return { body: { sources: [VIEW] } };
  if (r.method === "PUT") return { body: r.body };
  if (!r.path.endsWith("/query")) return undefined;
  const query = (r.body as { query: { dimensions?: string[]; calculations?: unknown[] } }).query;
  const dims = query.dimensions ?? [];
  const share = !!query.calculations?.length;
  const annotate = (title: string) => ({ title, shortTitle: title, type: "string" });
  return {
    body: {
      data: ROWS.map((row) => ({
        ...Object.fromEntries(dims.map((d) => [d, row[d as keyof typeof row]])),
        "orders.count": row["orders.count"],
        ...(share ? { "orders.count.percentOfTotal": row["orders.count"] / 8 } : {}),
      })),
      annotation: {
        measures: { "orders.count": { title: "Orders Count", shortTitle: "Count", type: "number", measureType: "count" } },
        dimensions: Object.fromEntries(dims.map((d) => [d, annotate(d === "orders.status" ? "Status" : "Country")])),
        timeDimensions: {},
        ...(share
          ? {
              calculations: {
                "orders.count.percentOfTotal": {
                  title: "Orders Count (% of total)",
                  shortTitle: "Count (% of total)",
                  type: "number",
                  format: "percent",
                  measure: "orders.count",
                  calculation: "percentOfTotal",
                },
              },
            }
          : {}),
      },
      fromCache: false,
    },
  };
};

const queries = (requests: RecordedRequest[]) => requests.filter((r) => r.method === "POST" && r.path.endsWith("/query"));
const saves = (requests: RecordedRequest[]) => requests.filter((r) => r.method === "PUT");
const wait = (ms: number) => act(() => new Promise((resolve) => setTimeout(resolve, ms)));
const texts = (row: HTMLElement) => [...row.querySelectorAll("th, td")].map((c) => c.textContent);

describe("ReportBuilder with several breakouts", () => {
  it("leaves a breakout without a dimension out, pivots two breakouts with totals and percent of total, and saves the pivot", async () => {
    const { requests, errors } = renderInApp(<ReportBuilder report={ORDERS_REPORT} canEdit />, { platform });
    await waitFor(() => expect(queries(requests)).toHaveLength(1));

    fireEvent.click(await screen.findByRole("button", { name: "+ Breakout" }));
    expect(screen.getByTestId("breakout-incomplete").textContent).toBe("incomplete — left out");
    await wait(AUTOSAVE_DELAY_MS + 200);
    expect(saves(requests)).toEqual([]);
    for (const q of queries(requests)) expect(JSON.stringify(q.body)).not.toContain('""');

    fireEvent.change(screen.getByRole("combobox", { name: "Breakout 1" }), { target: { value: "orders.status" } });
    fireEvent.click(screen.getByRole("button", { name: "+ Breakout" }));
    fireEvent.change(screen.getByRole("combobox", { name: "Breakout 2" }), { target: { value: "orders.country" } });
    expect(screen.queryByTestId("breakout-incomplete")).toBeNull();
    expect(screen.getByTestId("viz-suggested").textContent).toBe("suggested: Pivot");
    fireEvent.click(screen.getByTestId("viz-pivot"));
    fireEvent.click(screen.getByTestId("percent-of-total"));

    const table = await screen.findByRole("table");
    await waitFor(() =>
      expect(
        within(table)
          .getAllByRole("columnheader")
          .map((h) => h.textContent),
      ).toContain("Count, % of total"),
    );
    const asked = queries(requests).at(-1)!.body as { query: Record<string, unknown> };
    expect(asked.query).toMatchObject({
      measures: ["orders.count"],
      dimensions: ["orders.status", "orders.country"],
      calculations: [{ type: "percentOfTotal", measure: "orders.count" }],
    });
    // Country across (the last breakout), status down; each value per country, then the totals.
    const [groups, values] = within(table).getAllByRole("row");
    expect(texts(groups!)).toEqual(["Status", "DE", "FR", "Total"]);
    expect(groups!.querySelector("th")!.getAttribute("scope")).toBe("col");
    expect(groups!.querySelectorAll('th[scope="colgroup"]')).toHaveLength(3);
    expect(texts(values!)).toEqual(["Count", "Count, % of total", "Count", "Count, % of total", "Count", "Count, % of total"]);
    const body = table.querySelectorAll("tbody tr");
    expect(texts(body[0] as HTMLElement)).toEqual(["done", "3", "37.5%", "1", "12.5%", "4", "50%"]);
    expect(texts(body[1] as HTMLElement)).toEqual(["open", "4", "50%", "–", "–", "4", "50%"]);
    expect(body[0]!.querySelector("th")!.getAttribute("scope")).toBe("row");
    expect(texts(screen.getByTestId("pivot-totals"))).toEqual(["Total", "7", "87.5%", "1", "12.5%", "8", "100%"]);

    // Status across instead: saved as a table report whose spec names it, with the share in the query.
    fireEvent.change(screen.getByTestId("pivot-across"), { target: { value: "orders.status" } });
    await waitFor(() => expect(texts(within(screen.getByRole("table")).getAllByRole("row")[0]!)).toEqual(["Country", "done", "open", "Total"]));
    await waitFor(
      () =>
        expect(saves(requests).at(-1)?.body).toMatchObject({
          kind: "table",
          spec: { pivot: { columns: "orders.status" } },
          query: { dimensions: ["orders.status", "orders.country"], calculations: [{ type: "percentOfTotal", measure: "orders.count" }] },
        }),
      { timeout: AUTOSAVE_DELAY_MS * 4 },
    );

    // Reordered: country first.
    fireEvent.click(screen.getAllByRole("button", { name: "Move up" })[1]!);
    await waitFor(() =>
      expect((queries(requests).at(-1)!.body as { query: { dimensions: string[] } }).query.dimensions).toEqual(["orders.country", "orders.status"]),
    );
    expect(errors).toEqual([]);
  });

  it("names a comparison without a date range as left out, and a percent of total of averages", async () => {
    const report = { ...ORDERS_REPORT, query: { measures: ["orders.avg_amount"], dimensions: ["orders.status"] } };
    const { requests, errors } = renderInApp(<ReportBuilder report={report} canEdit />, { platform });
    await waitFor(() => expect(queries(requests)).toHaveLength(1));
    fireEvent.click(screen.getByTestId("percent-of-total"));
    expect(screen.getByTestId("percent-of-total-left-out").textContent).toBe("needs a count or a sum — left out");
    fireEvent.change(screen.getByTestId("compare-mode"), { target: { value: "previousPeriod" } });
    expect(screen.getByTestId("compare-left-out").textContent).toBe("needs a date range — left out");
    await wait(AUTOSAVE_DELAY_MS + 200);
    for (const q of queries(requests)) expect(JSON.stringify(q.body)).not.toMatch(/calculations|compare/);
    expect(saves(requests)).toEqual([]);
    expect(errors).toEqual([]);
  });

  it("suggests bars for one category, and a table once the result has more than 12 of them", async () => {
    const many: Platform = (r) =>
      r.path.endsWith("/query")
        ? {
            body: {
              data: Array.from({ length: 13 }, (_, i) => ({ "orders.status": `s${i}`, "orders.count": i })),
              annotation: {
                measures: { "orders.count": { title: "Orders Count", shortTitle: "Count", type: "number" } },
                dimensions: { "orders.status": { title: "Status", shortTitle: "Status", type: "string" } },
                timeDimensions: {},
              },
              fromCache: false,
            },
          }
        : platform(r);
    const { requests } = renderInApp(<ReportBuilder report={{ ...ORDERS_REPORT, query: {} }} canEdit />, { platform: many });
    fireEvent.click(await screen.findByRole("checkbox", { name: "Count" }));
    expect(screen.getByTestId("viz-suggested").textContent).toBe("suggested: KPI");
    expect(screen.getByTestId("viz-kpi").getAttribute("aria-checked")).toBe("true");
    fireEvent.click(screen.getByRole("button", { name: "+ Breakout" }));
    fireEvent.change(screen.getByRole("combobox", { name: "Breakout 1" }), { target: { value: "orders.status" } });
    await waitFor(() => expect(queries(requests).some((q) => JSON.stringify(q.body).includes("orders.status"))).toBe(true));
    await waitFor(() => expect(screen.getByTestId("viz-suggested").textContent).toBe("suggested: Table"));
    expect(screen.getByTestId("viz-table").getAttribute("aria-checked")).toBe("true");
    // Picked, the chart stays whatever the suggestion.
    fireEvent.click(screen.getByTestId("viz-bar"));
    fireEvent.click(screen.getByRole("checkbox", { name: "Average amount" }));
    expect(screen.getByTestId("viz-bar").getAttribute("aria-checked")).toBe("true");
  });

  it("speaks German: breakouts, calculations and the pivot's words", async () => {
    const report = {
      ...ORDERS_REPORT,
      kind: "table" as const,
      spec: { pivot: { columns: null } },
      query: { measures: ["orders.count"], dimensions: ["orders.status", "orders.country"] },
    };
    renderInApp(<ReportBuilder report={report} canEdit />, { platform, locale: "de-DE" });
    expect(await screen.findByText("Aufschlüsseln nach")).toBeTruthy();
    expect(screen.getByText("Berechnungen")).toBeTruthy();
    expect(screen.getByRole("button", { name: "+ Aufschlüsselung" })).toBeTruthy();
    expect(screen.getByTestId("viz-pivot").getAttribute("aria-checked")).toBe("true");
    await waitFor(() => expect(screen.getByTestId("pivot-totals").textContent).toContain("Gesamt"));
  });
});
