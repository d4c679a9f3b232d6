// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { renderEditorPart } from "./dashboard-editor-fixtures";
import { ordersPlatform, type Platform } from "./report-builder-fixtures";
import { StartingPoints } from "./workspace-start-points";

afterEach(cleanup);

const withDemo =
  (copy: ReturnType<Platform>): Platform =>
  (r) => {
    if (r.path.endsWith("/app/starting-points")) return { body: { dashboards: [{ publicId: "demoDash0001", title: "Sales overview" }] } };
    if (r.path.endsWith("/copy")) return copy;
    return ordersPlatform(r);
  };

describe("StartingPoints", () => {
  it("copies the published dashboard picked and opens the copy's editor", async () => {
    const view = renderEditorPart(<StartingPoints />, {
      platform: withDemo({ status: 201, body: { id: 9, name: "Sales overview", updatedAt: "2026-11-28T00:00:00Z" } }),
    });
    fireEvent.click(await screen.findByRole("button", { name: "Copy to my space" }));
    await waitFor(() => expect(view.went).toEqual([{ kind: "dashboard", workbookId: 9 }]));
    expect(view.notes).toEqual([["ok", "“Sales overview” is in your space."]]);
    expect(view.requests.find((r) => r.method === "POST")?.path).toBe("/api/v1/deployments/1/app/starting-points/dashboards/demoDash0001/copy");
  });

  it("says why a copy failed and stays, in German in de-DE", async () => {
    const view = renderEditorPart(<StartingPoints />, {
      platform: withDemo({ status: 403, body: { code: "forbidden", message: "This dashboard is not shared with your organization" } }),
      locale: "de-DE",
    });
    fireEvent.click(await screen.findByRole("button", { name: "In meinen Bereich kopieren" }));
    await waitFor(() => expect(view.notes.length).toBe(1));
    expect(view.notes[0]![1]).toContain("Konnte nicht erstellt werden");
    expect(view.went).toEqual([]);
  });

  it("deletes the template's workbook again when a step fails half way, and says why", async () => {
    let next = 20;
    const view = renderEditorPart(<StartingPoints />, {
      platform: (r) => {
        if (r.method === "POST" && r.path.endsWith("/workbooks"))
          return { status: 201, body: { id: 11, name: "Orders overview", updatedAt: "2026-11-28T00:00:00Z" } };
        if (r.method === "POST" && r.path.endsWith("/reports"))
          return ++next === 22
            ? { status: 503, body: { code: "unavailable", message: "The storage is busy" } }
            : { status: 201, body: { id: next, publicId: `Report${next}abcde` } };
        if (r.method === "DELETE") return { status: 204, body: null };
        return withDemo(undefined)(r);
      },
    });
    fireEvent.click(await screen.findByRole("button", { name: "Create dashboard" }));
    await waitFor(() => expect(view.notes.length).toBe(1));
    expect(view.notes[0]![1]).toContain("The storage is busy");
    const writes = view.requests.filter((r) => r.method !== "GET").map((r) => `${r.method} ${r.path.replace("/api/v1/deployments/1", "")}`);
    expect(writes).toEqual(["POST /workbooks", "POST /app/workbooks/11/reports", "POST /app/workbooks/11/reports", "DELETE /workbooks/11"]);
    expect(view.went).toEqual([]);
  });

  it("builds a template of the view picked: a workbook, its reports, the chart's spec and the draft laid out on them", async () => {
    let next = 20;
    const view = renderEditorPart(<StartingPoints />, {
      platform: (r) => {
        if (r.method === "POST" && r.path.endsWith("/workbooks"))
          return { status: 201, body: { id: 11, name: "Orders overview", updatedAt: "2026-11-28T00:00:00Z" } };
        if (r.method === "POST" && r.path.endsWith("/reports")) return { status: 201, body: { id: ++next, publicId: `Report${next}abcde` } };
        return withDemo(undefined)(r);
      },
    });
    fireEvent.click(await screen.findByRole("button", { name: "Create dashboard" }));
    await waitFor(() => expect(view.went).toEqual([{ kind: "dashboard", workbookId: 11 }]));
    const writes = view.requests.filter((r) => r.method !== "GET").map((r) => `${r.method} ${r.path.replace("/api/v1/deployments/1", "")}`);
    expect(writes).toEqual([
      "POST /workbooks",
      "POST /app/workbooks/11/reports",
      "POST /app/workbooks/11/reports",
      "PUT /reports/by-public-id/Report22abcde",
      "PUT /workbooks/11/dashboard/draft",
    ]);
    const draft = view.requests.at(-1)!.body as { title: string; widgets: { config: { reportId: number } }[] };
    expect(draft.title).toBe("Orders overview");
    expect(draft.widgets.map((w) => w.config.reportId)).toEqual([21, 22]);
  });

  it("shows nothing when there is nothing to start from", async () => {
    const view = renderEditorPart(<StartingPoints />, {
      platform: (r) =>
        r.path.endsWith("/meta") ? { body: { sources: [] } } : r.path.endsWith("/app/starting-points") ? { body: { dashboards: [] } } : undefined,
    });
    await waitFor(() => expect(view.requests.length).toBe(2));
    expect(screen.queryByTestId("home-start")).toBeNull();
  });
});
