// @vitest-environment jsdom
import { cleanup, fireEvent, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { DashboardToolbar } from "./dashboard-toolbar";
import { renderEditorPart } from "./dashboard-editor-fixtures";

afterEach(cleanup);

const handlers = () => ({ onAdd: vi.fn(), onUndo: vi.fn(), onRedo: vi.fn(), onPreview: vi.fn(), onPublish: vi.fn() });
const state = { canEdit: true, editing: true, canUndo: true, canRedo: false, save: { status: "saved" as const }, preview: false, publishing: false };

describe("DashboardToolbar", () => {
  it("adds every widget type, undoes, previews and publishes", () => {
    const h = handlers();
    renderEditorPart(<DashboardToolbar {...state} {...h} />);
    for (const id of ["chart", "text", "filter", "time_grain", "tabs_container", "ai"]) fireEvent.click(screen.getByTestId(`add-${id}`));
    expect(h.onAdd.mock.calls.map((c) => c[0])).toEqual(["CHART", "TEXT", "FILTER", "TIME_GRAIN", "TABS_CONTAINER", "AI"]);
    fireEvent.click(screen.getByTestId("undo"));
    expect(h.onUndo).toHaveBeenCalledOnce();
    expect(screen.getByTestId<HTMLButtonElement>("redo").disabled).toBe(true);
    fireEvent.click(screen.getByTestId("preview"));
    fireEvent.click(screen.getByTestId("publish"));
    expect(h.onPreview).toHaveBeenCalledOnce();
    expect(h.onPublish).toHaveBeenCalledOnce();
    expect(screen.getByTestId("draft-status").textContent).toBe("Draft saved");
  });

  it("shows publishing and keeps Publish disabled meanwhile", () => {
    renderEditorPart(<DashboardToolbar {...state} publishing {...handlers()} />);
    expect(screen.getByTestId("publish").textContent).toBe("Publishing…");
    expect(screen.getByTestId<HTMLButtonElement>("publish").disabled).toBe(true);
  });

  it("adds from the phone menu, which closes after a pick", () => {
    const h = handlers();
    renderEditorPart(<DashboardToolbar {...state} {...h} />);
    const menu = screen.getByTestId("add-menu").closest("details")!;
    menu.open = true;
    fireEvent.click(screen.getByTestId("add-menu-time_grain"));
    expect(h.onAdd).toHaveBeenCalledWith("TIME_GRAIN");
    expect(menu.open).toBe(false);
  });

  it("speaks German in de-DE", () => {
    renderEditorPart(<DashboardToolbar {...state} save={{ status: "saving" }} {...handlers()} />, { locale: "de-DE" });
    expect(screen.getByTestId("publish").textContent).toBe("Veröffentlichen");
    expect(screen.getByTestId("preview").textContent).toBe("Vorschau");
    expect(screen.getByTestId("draft-status").textContent).toBe("Wird gespeichert…");
    expect(screen.getByTestId("add-chart").textContent).toBe("+ Diagramm");
    expect(screen.getByTestId("undo").getAttribute("aria-label")).toBe("Rückgängig");
    expect(screen.getByTestId("redo").getAttribute("aria-label")).toBe("Wiederholen");
    expect(screen.getByTestId("add-menu").textContent).toBe("+Widget hinzufügen");
  });

  it("has no editing controls when read only", () => {
    renderEditorPart(<DashboardToolbar {...state} canEdit={false} editing={false} {...handlers()} />);
    expect(screen.queryByTestId("publish")).toBeNull();
    expect(screen.queryByTestId("add-chart")).toBeNull();
    expect(screen.getByText("Read only")).toBeTruthy();
  });
});
