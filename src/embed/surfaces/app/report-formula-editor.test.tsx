// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { ReportBuilder } from "./report-builder";
import { ORDERS_REPORT, ordersPlatform, renderInApp, type Platform, type RecordedRequest } from "./report-builder-fixtures";
import { AUTOSAVE_DELAY_MS } from "./use-report-draft";

afterEach(cleanup);

const queries = (requests: RecordedRequest[]) => requests.filter((r) => r.method === "POST" && r.path.endsWith("/query"));
const saves = (requests: RecordedRequest[]) => requests.filter((r) => r.method === "PUT" && r.path.includes("/reports/"));
const workbookWrites = (requests: RecordedRequest[]) => requests.filter((r) => r.method === "PUT" && r.path.endsWith("/workbooks/3"));

/** The orders platform with the report's workbook, which already records one field. */
const platform: Platform = (r) => {
  if (r.path.endsWith("/workbooks/3") && r.method === "GET")
    return { body: { id: 3, name: "Orders", updatedAt: "2026-11-27T00:00:00.000Z", calculatedFields: { "orders.twice": { formula: "count * 2" } } } };
  return ordersPlatform(r);
};
const wait = (ms: number) => act(() => new Promise((resolve) => setTimeout(resolve, ms)));

describe("the report builder's formula editor", () => {
  it("completes a member, shows a problem at its position, and adds the field as a column that runs and is saved", async () => {
    const { requests, errors } = renderInApp(<ReportBuilder report={ORDERS_REPORT} canEdit />, { platform });
    await waitFor(() => expect(queries(requests)).toHaveLength(1));

    fireEvent.click(await screen.findByTestId("add-calculated-field"));
    const editor = screen.getByTestId("formula-editor");
    fireEvent.change(within(editor).getByTestId("formula-name"), { target: { value: "Orders per status" } });
    const input = within(editor).getByTestId("formula-input") as HTMLInputElement;

    // A word typed: the members that start with it, by title and name; Enter takes the first.
    fireEvent.change(input, { target: { value: "cou", selectionStart: 3 } });
    const list = within(editor).getByTestId("formula-completions");
    expect([...list.querySelectorAll("[role=option]")].map((o) => o.getAttribute("data-insert"))).toEqual(["count", "count(", "count_distinct("]);
    fireEvent.keyDown(input, { key: "Enter" });
    expect(input.value).toBe("count");
    expect(within(editor).queryByTestId("formula-completions")).toBeNull();

    // A formula that ends too early: the problem under the field, at the end of the text.
    fireEvent.change(input, { target: { value: "count / ", selectionStart: 8 } });
    const problem = within(editor).getByTestId("formula-error");
    expect(problem.textContent).toContain("This formula cannot be read — at character 9");
    expect(problem.getAttribute("data-position")).toBe("8");
    expect(input.getAttribute("aria-invalid")).toBe("true");

    // An unknown member: named, pointed at, with the nearest name.
    fireEvent.change(input, { target: { value: "count / cont", selectionStart: 12 } });
    expect(within(editor).getByTestId("formula-error").textContent).toContain("“cont” is not a member of this view — at character 9");
    expect(within(editor).getByTestId("formula-did-you-mean").textContent).toBe("Did you mean “count”?");
    expect(within(editor).getByTestId("formula-error-mark").textContent).toBe("cont");
    fireEvent.click(within(editor).getByTestId("formula-add"));
    expect(screen.getByTestId("formula-editor")).toBeTruthy();

    fireEvent.change(input, { target: { value: "count(where status = 'returned') / count", selectionStart: 40 } });
    expect(within(editor).getByTestId("formula-kind").textContent).toBe("A measure: one number per group");
    fireEvent.click(within(editor).getByTestId("formula-add"));
    expect(screen.queryByTestId("formula-editor")).toBeNull();
    expect(screen.getByTestId("calculated-field").textContent).toContain("Orders per status");

    const field = { name: "orders_per_status", formula: "count(where status = 'returned') / count", title: "Orders per status" };
    await waitFor(() => expect(JSON.stringify(queries(requests).at(-1)?.body)).toContain("orders.orders_per_status"));
    expect((queries(requests).at(-1)!.body as { query: unknown }).query).toMatchObject({
      measures: ["orders.count", "orders.orders_per_status"],
      calculatedFields: [field],
    });
    await wait(AUTOSAVE_DELAY_MS + 200);
    expect((saves(requests).at(-1)?.body as { query: unknown }).query).toMatchObject({ calculatedFields: [field] });
    // The workbook records it beside the fields it had: a change that sets this field alone (spec 2.2 `calculatedFieldChanges`, keyed <view>.<name>).
    expect(workbookWrites(requests).map((r) => r.body)).toEqual([
      { calculatedFieldChanges: { set: { "orders.orders_per_status": { formula: field.formula, title: field.title } } } },
    ]);

    // Unticked, the field stays in the report's list but leaves the query (the API refuses an unused field).
    fireEvent.click(screen.getByRole("checkbox", { name: "Orders per status" }));
    await waitFor(() => expect(JSON.stringify(queries(requests).at(-1)?.body)).not.toContain("orders_per_status"));
    expect(errors).toEqual([]);
  });

  it.each([
    {
      locale: "de-DE" as const,
      unknown: "Unbekanntes Element „cont“; meinten Sie „count“?",
      headline: "„cont“ ist kein Element dieser Ansicht — bei Zeichen 9",
      unclosed: "Der Text ist nicht geschlossen: Beenden Sie ihn mit '",
      mismatch: "„=“ vergleicht einen Wert vom Typ Zahl mit einem Wert vom Typ Text",
    },
    {
      locale: "es-ES" as const,
      unknown: "Miembro desconocido «cont»; ¿quiso decir «count»?",
      headline: "«cont» no es un miembro de esta vista — en el carácter 9",
      unclosed: "El texto no está cerrado: termínelo con '",
      mismatch: "«=» compara un valor de tipo número con uno de tipo texto",
    },
  ])("tells the checker's problem in the app's language ($locale), pointed at where it is", async (expected) => {
    const { requests, errors } = renderInApp(<ReportBuilder report={ORDERS_REPORT} canEdit />, { platform, locale: expected.locale });
    await waitFor(() => expect(queries(requests)).toHaveLength(1));
    fireEvent.click(await screen.findByTestId("add-calculated-field"));
    const editor = screen.getByTestId("formula-editor");
    const input = within(editor).getByTestId("formula-input") as HTMLInputElement;
    const problemAt = (formula: string) => {
      fireEvent.change(input, { target: { value: formula, selectionStart: formula.length } });
      const problem = within(editor).getByTestId("formula-error");
      const detail = within(editor).getByTestId("formula-detail");
      expect(detail.getAttribute("lang")).toBe(expected.locale.slice(0, 2));
      return {
        text: detail.textContent,
        position: problem.getAttribute("data-position"),
        marked: within(editor).getByTestId("formula-error-mark").textContent,
      };
    };

    expect(problemAt("count / cont")).toEqual({ text: expected.unknown, position: "8", marked: "cont" });
    expect(within(editor).getByTestId("formula-error").textContent).toContain(expected.headline);
    expect(problemAt("status = 'returned")).toEqual({ text: expected.unclosed, position: "9", marked: "'returned" });
    expect(problemAt("id = 'a'")).toEqual({ text: expected.mismatch, position: "5", marked: "'a'" });
    expect(within(editor).getByTestId("formula-error").textContent).not.toMatch(/compares|unknown member|is not closed/);
    expect(errors).toEqual([]);
  });

  it("marks a saved field whose formula no longer checks and leaves it out of what runs and is saved, with no error for the host", async () => {
    const report = {
      ...ORDERS_REPORT,
      query: { measures: ["orders.count", "orders.gone"], calculatedFields: [{ name: "gone", formula: "count / refunds", title: "Refund rate" }] },
    };
    const { requests, errors } = renderInApp(<ReportBuilder report={report} canEdit />);
    await waitFor(() => expect(queries(requests)).toHaveLength(1));
    expect((await screen.findByTestId("calculated-field-left-out")).textContent).toBe("the formula has a problem — left out");
    expect((queries(requests)[0]!.body as { query: unknown }).query).toMatchObject({ measures: ["orders.count"] });
    expect(JSON.stringify(queries(requests)[0]!.body)).not.toContain("gone");
    await wait(AUTOSAVE_DELAY_MS + 200);
    expect(saves(requests)).toEqual([]);
    expect(errors).toEqual([]);
  });
});
