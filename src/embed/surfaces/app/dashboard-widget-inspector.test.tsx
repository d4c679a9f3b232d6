// @vitest-environment jsdom
import { cleanup, fireEvent, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { DashboardWidget } from "../../../schema/dashboard";
import { REPORT, renderEditorPart } from "./dashboard-editor-fixtures";
import { WidgetInspector } from "./dashboard-widget-inspector";

afterEach(cleanup);

const text: DashboardWidget = { id: "t", type: "TEXT", position: { x: 0, y: 0, w: 6, h: 2 }, config: { markdown: "Hi" } };
const filter: DashboardWidget = { id: "f", type: "FILTER", position: { x: 0, y: 0, w: 3, h: 2 }, config: {} };

describe("WidgetInspector", () => {
  it("edits a text widget's markdown, removes and closes", () => {
    const onChange = vi.fn();
    const onRemove = vi.fn();
    const onClose = vi.fn();
    renderEditorPart(<WidgetInspector widget={text} reports={[REPORT]} onChange={onChange} onRemove={onRemove} onClose={onClose} />);
    fireEvent.change(screen.getByTestId("text-markdown"), { target: { value: "# New" } });
    const fn = onChange.mock.calls[0]![0] as (w: DashboardWidget) => DashboardWidget;
    expect(fn(text).config).toEqual({ markdown: "# New" });
    fireEvent.click(screen.getByTestId("remove-widget"));
    expect(onRemove).toHaveBeenCalledOnce();
    fireEvent.click(screen.getByRole("button", { name: "Close" }));
    expect(onClose).toHaveBeenCalledOnce();
  });

  it("closes on Escape", () => {
    const onClose = vi.fn();
    renderEditorPart(<WidgetInspector widget={text} reports={[]} onChange={() => {}} onRemove={() => {}} onClose={onClose} />);
    fireEvent.keyDown(window, { key: "Enter" });
    expect(onClose).not.toHaveBeenCalled();
    fireEvent.keyDown(window, { key: "Escape" });
    expect(onClose).toHaveBeenCalledOnce();
  });

  it("names its fields in the viewer's language (ja-JP)", () => {
    renderEditorPart(<WidgetInspector widget={text} reports={[]} onChange={() => {}} onRemove={() => {}} onClose={() => {}} />, { locale: "ja-JP" });
    expect(screen.getByRole("complementary", { name: "ウィジェットの設定" })).toBeTruthy();
    expect(screen.getByRole("heading").textContent).toBe("テキスト");
    expect(screen.getByTestId("remove-widget").textContent).toBe("ウィジェットを削除");
    expect(screen.getByRole("button", { name: "閉じる" })).toBeTruthy();
  });

  it("offers the semantic layer's dimensions to a filter and picks its control", async () => {
    const onChange = vi.fn();
    renderEditorPart(<WidgetInspector widget={filter} reports={[]} onChange={onChange} onRemove={() => {}} onClose={() => {}} />);
    const option = await screen.findByRole("option", { name: "Orders: Status" });
    fireEvent.change(option.closest("select")!, { target: { value: "orders.status" } });
    const fn = onChange.mock.calls[0]![0] as (w: DashboardWidget) => DashboardWidget;
    expect(fn(filter).config).toEqual({ member: "orders.status", control: "values" });
  });
});
