// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { ReportBuilder } from "./report-builder";
import { ORDERS_REPORT, ordersPlatform, renderInApp, type RecordedRequest } from "./report-builder-fixtures";
import { AUTOSAVE_DELAY_MS } from "./use-report-draft";

afterEach(cleanup);

const report = ORDERS_REPORT;

const queries = (requests: RecordedRequest[]) => requests.filter((r) => r.method === "POST" && r.path.endsWith("/query"));
const saves = (requests: RecordedRequest[]) => requests.filter((r) => r.method === "PUT");
const wait = (ms: number) => act(() => new Promise((resolve) => setTimeout(resolve, ms)));

describe("ReportBuilder", () => {
  it("leaves a half-made filter out of the preview and the save, with no error for the host, and runs it once it has a value", async () => {
    const { requests, errors } = renderInApp(<ReportBuilder report={report} canEdit />);
    await waitFor(() => expect(queries(requests)).toHaveLength(1));

    fireEvent.click(await screen.findByRole("button", { name: "+ Filter" }));
    expect(screen.getByTestId("filter-incomplete").textContent).toBe("incomplete — left out");
    await wait(AUTOSAVE_DELAY_MS + 200);
    for (const q of queries(requests)) expect(JSON.stringify(q.body)).not.toContain("filters");
    expect(saves(requests)).toEqual([]);
    expect(errors).toEqual([]);
    expect(screen.getByTestId("save-status").textContent).toBe("Saved");

    fireEvent.change(screen.getByTestId("filter-values"), { target: { value: "42" } });
    fireEvent.blur(screen.getByTestId("filter-values"));
    expect(screen.queryByTestId("filter-incomplete")).toBeNull();
    const filter = { member: "orders.id", operator: "equals", values: ["42"] };
    await waitFor(() => expect(queries(requests).some((q) => JSON.stringify(q.body).includes(JSON.stringify(filter)))).toBe(true));
    await waitFor(() => expect(saves(requests)).toHaveLength(1), { timeout: AUTOSAVE_DELAY_MS * 3 });
    expect(saves(requests)[0]!.body).toMatchObject({ query: { measures: ["orders.count"], filters: [filter] } });
    expect(errors).toEqual([]);
  });

  it("still tells the host when the server refuses a complete query", async () => {
    const { requests, errors } = renderInApp(<ReportBuilder report={report} canEdit />, {
      platform: (r) => (r.path.endsWith("/query") ? { status: 500, body: { code: "query_failed", message: "the database is gone" } } : ordersPlatform(r)),
    });
    await waitFor(() => expect(queries(requests).length).toBeGreaterThan(0));
    await waitFor(() => expect(errors.length).toBeGreaterThan(0));
    expect(errors[0]).toMatchObject({ name: "QueryFailed" });
  });

  it("speaks the viewer's language (de-DE): panels, charts, the new filter and the save status", async () => {
    const { requests } = renderInApp(<ReportBuilder report={report} canEdit />, { locale: "de-DE" });
    await waitFor(() => expect(queries(requests)).toHaveLength(1));
    expect(screen.getByRole("complementary", { name: "Abfrage" })).toBeTruthy();
    expect(screen.getByText("Kennzahlen")).toBeTruthy();
    expect(screen.getByTestId("viz-bar").textContent).toBe("Balken");
    fireEvent.click(screen.getByRole("button", { name: "+ Filter hinzufügen" }));
    expect(screen.getByTestId("filter-incomplete").textContent).toBe("unvollständig – nicht angewendet");
    expect(screen.getByRole("combobox", { name: "Bedingung" })).toHaveProperty("value", "equals");
    expect(screen.getByTestId("save-status").textContent).toBe("Gespeichert");
  });
});
