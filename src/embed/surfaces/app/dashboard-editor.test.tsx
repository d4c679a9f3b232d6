// @vitest-environment jsdom
import { cleanup, fireEvent, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { REPORT, WORKBOOK, renderEditorPart } from "./dashboard-editor-fixtures";
import { DashboardEditor } from "./dashboard-editor";

afterEach(cleanup);

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
});
