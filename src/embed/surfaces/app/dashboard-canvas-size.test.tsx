// @vitest-environment jsdom
import { cleanup, fireEvent, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { DashboardWidget } from "../../../schema/dashboard";
import { resolveGridConfig } from "../../grid/grid-layouts";
import { renderEditorPart } from "./dashboard-editor-fixtures";
import { CanvasSizeBar, canvasFrame } from "./dashboard-canvas-size";

afterEach(cleanup);

const grid = resolveGridConfig(undefined);
const widgets: DashboardWidget[] = [{ id: "a", type: "TEXT", position: { x: 0, y: 0, w: 12, h: 2 } }];

function bar(size: "auto" | "lg" | "md" | "sm", ws = widgets, locale?: "de-DE") {
  const onSize = vi.fn();
  const onWidgets = vi.fn<(fn: (w: DashboardWidget[]) => DashboardWidget[]) => void>();
  renderEditorPart(<CanvasSizeBar size={size} onSize={onSize} grid={grid} widgets={ws} editing onWidgets={onWidgets} />, locale ? { locale } : {});
  return { onSize, onWidgets, result: () => onWidgets.mock.calls[0]![0](ws) };
}

describe("CanvasSizeBar", () => {
  it("switches the canvas size, the one shown pressed", () => {
    const { onSize } = bar("auto");
    expect(screen.getByRole("button", { name: "Fit" }).getAttribute("aria-pressed")).toBe("true");
    const laptop = screen.getByRole("button", { name: "Laptop" });
    expect(laptop.title).toBe("Laptop, 996 px and wider");
    fireEvent.click(laptop);
    expect(onSize).toHaveBeenCalledWith("md");
    expect(screen.queryByTestId("layout-notice")).toBeNull();
  });

  it("shows a derived layout read-only, and arranging makes it the breakpoint's own", () => {
    const { onWidgets, result } = bar("sm");
    expect(screen.getByTestId("layout-notice").textContent).toContain("The Tablet layout is worked out from the desktop one");
    expect(canvasFrame("sm", grid, { widgets })).toEqual({ width: 769, editable: false });
    fireEvent.click(screen.getByRole("button", { name: "Arrange for Tablet" }));
    expect(onWidgets).toHaveBeenCalledTimes(1);
    const own = result();
    expect(own[0]!.responsiveLayouts?.sm).toEqual({ x: 0, y: 0, w: 6, h: 2 });
    expect(canvasFrame("sm", grid, { widgets: own })).toEqual({ width: 769, editable: true });
  });

  it("goes back from a layout of its own to the derived one, in German in de-DE", () => {
    const own: DashboardWidget[] = [{ ...widgets[0]!, responsiveLayouts: { md: { x: 0, y: 0, w: 5, h: 3 } } }];
    const { result } = bar("md", own, "de-DE");
    expect(screen.getByRole("group", { name: "Bildschirmgröße" })).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Abgeleitetes Layout verwenden" }));
    expect(result()).toEqual(widgets);
  });

  it("edits the desktop layout at its width, and nothing to say about it", () => {
    bar("lg");
    expect(screen.queryByTestId("layout-notice")).toBeNull();
    expect(canvasFrame("lg", grid, { widgets })).toEqual({ width: 1201, editable: true });
    expect(canvasFrame("auto", grid, { widgets })).toEqual({ editable: true });
  });
});
