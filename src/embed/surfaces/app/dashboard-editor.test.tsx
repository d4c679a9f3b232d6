// @vitest-environment jsdom
import { cleanup, fireEvent, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { REPORT, WORKBOOK, renderEditorPart } from "./dashboard-editor-fixtures";
import { DashboardEditor } from "./dashboard-editor";

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe("DashboardEditor", () => {
  it("adds a widget, opens its settings and removes it", () => {
    renderEditorPart(<DashboardEditor workbook={{ ...WORKBOOK, dashboardDraft: { title: "Sales", widgets: [] } }} reports={[REPORT]} canEdit />);
    expect(screen.getByTestId("dashboard-empty")).toBeTruthy();
    fireEvent.click(screen.getByTestId("add-text"));
    expect(screen.queryByTestId("dashboard-empty")).toBeNull();
    expect(screen.getByTestId("widget-inspector")).toBeTruthy();
    expect(screen.getByTestId<HTMLTextAreaElement>("text-markdown").value).toContain("markdown");
    fireEvent.click(screen.getByTestId("remove-widget"));
    expect(screen.queryByTestId("widget-inspector")).toBeNull();
    expect(screen.getByTestId("dashboard-empty")).toBeTruthy();
  });

  it("previews without editing controls, and is read only for a viewer", () => {
    renderEditorPart(<DashboardEditor workbook={WORKBOOK} reports={[REPORT]} canEdit />);
    fireEvent.click(screen.getByTestId("preview"));
    expect(screen.queryByTestId("add-chart")).toBeNull();
    expect(screen.queryByTestId("dashboard-title")).toBeNull();
    cleanup();
    renderEditorPart(<DashboardEditor workbook={WORKBOOK} reports={[REPORT]} canEdit={false} />);
    expect(screen.queryByTestId("publish")).toBeNull();
  });

  it("puts a widget into a tab and takes it out again, each one undo step", () => {
    renderEditorPart(<DashboardEditor workbook={{ ...WORKBOOK, dashboardDraft: { title: "Sales", widgets: [] } }} reports={[REPORT]} canEdit />);
    fireEvent.click(screen.getByTestId("add-tabs_container"));
    fireEvent.click(screen.getByTestId("add-text"));
    // The text widget's settings offer the container's tab.
    const place = screen.getByTestId<HTMLSelectElement>("place-in-tab");
    expect([...place.options].map((o) => o.text)).toEqual(["The dashboard itself", "Tabs › Tab 1"]);
    fireEvent.change(place, { target: { value: place.options[1]!.value } });
    // The container is selected now and lists what its tab holds.
    expect(screen.getByRole("heading", { level: 3 }).textContent).toBe("Tabs");
    const contents = screen.getByTestId("tab-contents-tab-1");
    expect(contents.textContent).toContain("Text");
    fireEvent.click(contents.querySelector<HTMLButtonElement>("button")!);
    expect(screen.getByTestId("tab-contents-tab-1").textContent).toContain("Nothing in this tab yet");
    fireEvent.click(screen.getByRole("button", { name: "Undo" }));
    expect(screen.getByTestId("tab-contents-tab-1").textContent).toContain("Text");
  });

  it("takes back slow typing into a text widget in one undo, and typing after the focus left it in another", () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    renderEditorPart(<DashboardEditor workbook={{ ...WORKBOOK, dashboardDraft: { title: "Sales", widgets: [] } }} reports={[REPORT]} canEdit />);
    fireEvent.click(screen.getByTestId("add-text"));
    const markdown = () => screen.getByTestId<HTMLTextAreaElement>("text-markdown");
    for (const text of ["N", "No", "Not", "Note", "Notes"]) {
      fireEvent.change(markdown(), { target: { value: text } });
      vi.advanceTimersByTime(5_000);
    }
    fireEvent.blur(markdown());
    fireEvent.change(markdown(), { target: { value: "Notes, later" } });
    const undo = screen.getByRole("button", { name: "Undo" });
    fireEvent.click(undo);
    expect(markdown().value).toBe("Notes");
    fireEvent.click(undo);
    expect(markdown().value).toContain("markdown");
    fireEvent.click(undo);
    expect(screen.getByTestId("dashboard-empty")).toBeTruthy();
  });
});
