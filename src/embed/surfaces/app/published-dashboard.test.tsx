// @vitest-environment jsdom
import { cleanup, fireEvent, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { WORKBOOK, renderEditorPart } from "./dashboard-editor-fixtures";
import { PublishedDashboard } from "./published-dashboard";

afterEach(cleanup);

describe("PublishedDashboard", () => {
  it("says it is not published yet and opens the editor", () => {
    const view = renderEditorPart(<PublishedDashboard workbook={{ ...WORKBOOK, publishedDashboard: null }} />);
    expect(screen.getByTestId("published-empty").textContent).toContain("Not published yet");
    fireEvent.click(screen.getByRole("button"));
    expect(view.went).toEqual([{ kind: "dashboard", workbookId: 3 }]);
  });

  it("shows its title, version and an empty dashboard's state; Edit opens the editor", () => {
    const publishedDashboard = {
      id: 1,
      publicId: "SalesDash001",
      deploymentId: 1,
      workbookId: 3,
      status: "published" as const,
      allowEmbed: true,
      config: { title: "Sales board", widgets: [] },
      versionNumber: 4,
      versionId: 9,
      reportSnapshots: [],
    };
    renderEditorPart(<PublishedDashboard workbook={{ ...WORKBOOK, publishedDashboard }} />);
    expect(screen.getByRole("heading", { level: 2 }).textContent).toBe("Sales board");
    expect(screen.getByText("Version 4")).toBeTruthy();
    cleanup();
    renderEditorPart(<PublishedDashboard workbook={{ ...WORKBOOK, publishedDashboard }} />, { locale: "pt-BR" });
    expect(screen.getByText("Versão 4")).toBeTruthy();
    expect(screen.getByText("Este dashboard está vazio")).toBeTruthy();
    cleanup();
    const again = renderEditorPart(<PublishedDashboard workbook={{ ...WORKBOOK, publishedDashboard }} />);
    expect(screen.getByText("This dashboard is empty")).toBeTruthy();
    fireEvent.click(screen.getByTestId("edit-dashboard"));
    expect(again.went).toEqual([{ kind: "dashboard", workbookId: 3 }]);
  });
});
