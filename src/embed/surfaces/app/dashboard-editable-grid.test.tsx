// @vitest-environment jsdom
import { cleanup, fireEvent, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, onTestFinished, vi } from "vitest";
import type { DashboardWidget } from "../../../schema/dashboard";
import { renderEditorPart } from "./dashboard-editor-fixtures";
import { EditableGrid } from "./dashboard-editable-grid";
import { WidgetHostContext } from "../../grid/widget-host";
import { useWidgetHost } from "./dashboard-widgets";
import type { ReactNode } from "react";

function Host(props: { children: ReactNode }) {
  return <WidgetHostContext.Provider value={useWidgetHost([])}>{props.children}</WidgetHostContext.Provider>;
}

afterEach(cleanup);

const item = (id: string) => {
  const el = document.querySelector<HTMLElement>(`.svc-app-widget[data-testid="widget-${id}"]`);
  if (!el) throw new Error(`no widget ${id}`);
  return el;
};

const widgets: DashboardWidget[] = [
  { id: "t1", type: "TEXT", position: { x: 0, y: 0, w: 6, h: 2 }, config: { markdown: "Hello grid" } },
  { id: "t2", type: "TEXT", position: { x: 6, y: 0, w: 6, h: 2 }, config: { markdown: "Second" } },
];

describe("EditableGrid", () => {
  it("gives every widget a title bar to drag it by and a Configure button that selects it", () => {
    const onSelect = vi.fn();
    renderEditorPart(
      <Host>
        <EditableGrid widgets={widgets} layout={undefined} editing selected="t2" onSelect={onSelect} onLayout={() => {}} />
      </Host>,
    );
    const first = item("t1");
    expect(first.querySelector(".svc-app-drag")?.textContent).toContain("Text");
    expect(item("t2").className).toContain("is-selected");
    fireEvent.click(within(first).getByRole("button", { name: "Configure Text widget" }));
    expect(onSelect).toHaveBeenCalledWith("t1");
  });

  it("names each widget's resize handle, in French in fr-FR", () => {
    renderEditorPart(
      <Host>
        <EditableGrid widgets={widgets} layout={undefined} editing selected={null} onSelect={() => {}} onLayout={() => {}} />
      </Host>,
      { locale: "fr-FR" },
    );
    for (const id of ["t1", "t2"]) expect(within(item(id)).getByRole("img", { name: "Redimensionner" })).toBeTruthy();
    expect(within(item("t1")).getByRole("button", { name: "Configurer le widget Texte" })).toBeTruthy();
  });

  it("moves the focused widget with the arrow keys and resizes it with Shift, and says so", () => {
    // A desktop-wide grid (jsdom lays nothing out): the large breakpoint, whose layout is the widgets' own.
    const width = vi.spyOn(HTMLElement.prototype, "clientWidth", "get").mockReturnValue(1280);
    onTestFinished(() => width.mockRestore());
    const onLayout = vi.fn();
    renderEditorPart(
      <Host>
        <EditableGrid widgets={widgets} layout={undefined} editing selected={null} onSelect={() => {}} onLayout={onLayout} />
      </Host>,
    );
    const handle = within(item("t1")).getByRole("button", { name: "Text: Arrow keys move it, Shift+arrow keys resize it." });
    fireEvent.keyDown(handle, { key: "ArrowDown" });
    expect((onLayout.mock.calls[0]![0] as DashboardWidget[])[0]!.position).toEqual({ x: 0, y: 1, w: 6, h: 2 });
    expect(screen.getByTestId("grid-announcer").textContent).toBe("Text moved to column 1, row 2");
    fireEvent.keyDown(handle, { key: "ArrowRight", shiftKey: true });
    expect((onLayout.mock.calls[1]![0] as DashboardWidget[])[0]!.position).toEqual({ x: 0, y: 0, w: 7, h: 2 });
    expect(screen.getByTestId("grid-announcer").textContent).toBe("Text resized to 7 × 2 cells");
    fireEvent.keyDown(handle, { key: "ArrowLeft" });
    expect(onLayout).toHaveBeenCalledTimes(2);
  });

  it("has no title bars outside edit mode", () => {
    renderEditorPart(
      <Host>
        <EditableGrid widgets={widgets} layout={undefined} editing={false} selected={null} onSelect={() => {}} onLayout={() => {}} />
      </Host>,
    );
    expect(item("t1").querySelector(".svc-app-widget-bar")).toBeNull();
  });
});
