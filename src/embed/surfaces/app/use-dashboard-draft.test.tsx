// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor } from "@testing-library/react";
import { useState } from "react";
import { afterEach, describe, expect, it } from "vitest";
import { WORKBOOK, renderEditorPart } from "./dashboard-editor-fixtures";
import { useDashboardDraft } from "./use-dashboard-draft";

afterEach(cleanup);

const CHART = { id: "chart-1", type: "CHART" as const, position: { x: 0, y: 2, w: 6, h: 4 }, config: { reportId: 5 } };

function Probe(props: { reportIds?: number[] }) {
  const [reportIds, setReportIds] = useState(props.reportIds);
  const d = useDashboardDraft(WORKBOOK, true, reportIds);
  return (
    <div>
      <output data-testid="title">{d.config.title}</output>
      <output data-testid="save">{d.save.status}</output>
      <button onClick={() => d.change((c) => ({ ...c, title: `${c.title}!` }))}>change</button>
      <button disabled={!d.canUndo} onClick={d.undo}>
        undo
      </button>
      <button disabled={!d.canRedo} onClick={d.redo}>
        redo
      </button>
      <button onClick={() => d.change((c) => ({ ...c, widgets: [...(c.widgets ?? []), CHART] }))}>add chart</button>
      <button onClick={() => setReportIds([])}>delete report</button>
      <output data-testid="widgets">{(d.config.widgets ?? []).length}</output>
      <button onClick={() => void d.publish()}>publish</button>
    </div>
  );
}

describe("useDashboardDraft", () => {
  it("changes the draft, undoes and redoes it (buttons and Ctrl+Z / Ctrl+Shift+Z)", () => {
    renderEditorPart(<Probe />);
    const title = () => screen.getByTestId("title").textContent;
    fireEvent.click(screen.getByText("change"));
    fireEvent.click(screen.getByText("change"));
    expect(title()).toBe("Sales!!");
    fireEvent.click(screen.getByText("undo"));
    expect(title()).toBe("Sales!");
    fireEvent.keyDown(window, { key: "z", ctrlKey: true });
    expect(title()).toBe("Sales");
    expect(screen.getByText<HTMLButtonElement>("undo").disabled).toBe(true);
    fireEvent.keyDown(window, { key: "Z", ctrlKey: true, shiftKey: true });
    expect(title()).toBe("Sales!");
    fireEvent.click(screen.getByText("redo"));
    expect(title()).toBe("Sales!!");
  });

  it("redoes with Ctrl+Y and leaves a text field's own undo alone", () => {
    renderEditorPart(
      <>
        <Probe />
        <input data-testid="field" />
      </>,
    );
    const title = () => screen.getByTestId("title").textContent;
    fireEvent.click(screen.getByText("change"));
    fireEvent.keyDown(screen.getByTestId("field"), { key: "z", ctrlKey: true });
    expect(title()).toBe("Sales!");
    fireEvent.keyDown(window, { key: "z", metaKey: true });
    expect(title()).toBe("Sales");
    fireEvent.keyDown(window, { key: "y", ctrlKey: true });
    expect(title()).toBe("Sales!");
  });

  it("never saves a step the server would refuse: an undo back to a chart of a report deleted since", async () => {
    const view = renderEditorPart(<Probe reportIds={[5]} />);
    const drafts = () => view.requests.filter((r) => r.method === "PUT" && r.path.endsWith("/dashboard/draft"));
    fireEvent.click(screen.getByText("add chart"));
    await waitFor(() => expect(drafts().length).toBe(1), { timeout: 2000 });
    fireEvent.click(screen.getByText("undo"));
    await waitFor(() => expect(drafts().length).toBe(2), { timeout: 2000 });
    expect(drafts()[1]!.body).toMatchObject({ widgets: [{ id: "text-1" }] });
    // The report is deleted; redoing the step that added its chart is shown, not saved.
    fireEvent.click(screen.getByText("delete report"));
    fireEvent.click(screen.getByText("redo"));
    expect(screen.getByTestId("widgets").textContent).toBe("2");
    expect(screen.getByTestId("save").textContent).toBe("error");
    expect(view.notes.at(-1)).toEqual(["error", expect.stringContaining("no longer exists") as string]);
    await new Promise((r) => setTimeout(r, 900));
    expect(drafts().length).toBe(2);
    // Undoing again reaches a step the server takes, and it is saved.
    fireEvent.click(screen.getByText("undo"));
    await waitFor(() => expect(screen.getByTestId("save").textContent).toBe("saved"), { timeout: 2000 });
    expect(drafts().length).toBe(3);
  });

  it("saves the draft a moment after the last change", async () => {
    const view = renderEditorPart(<Probe />);
    fireEvent.click(screen.getByText("change"));
    expect(screen.getByTestId("save").textContent).toBe("saving");
    await waitFor(() => expect(screen.getByTestId("save").textContent).toBe("saved"), { timeout: 2000 });
    const put = view.requests.find((r) => r.method === "PUT" && r.path.endsWith("/workbooks/3/dashboard/draft"));
    expect(put?.body).toMatchObject({ title: "Sales!" });
  });

  it("publishes: saves the draft, publishes, says so and opens the published dashboard", async () => {
    const view = renderEditorPart(<Probe />);
    await act(async () => fireEvent.click(screen.getByText("publish")));
    await waitFor(() => expect(view.notes).toEqual([["ok", "Published"]]));
    expect(view.requests.map((r) => `${r.method} ${r.path.split("/").slice(-2).join("/")}`)).toEqual(["PUT dashboard/draft", "POST dashboard/publish"]);
    expect(view.went).toEqual([{ kind: "published", workbookId: WORKBOOK.id }]);
  });

  it("says Published in the viewer's language (es-ES)", async () => {
    const view = renderEditorPart(<Probe />, { locale: "es-ES" });
    await act(async () => fireEvent.click(screen.getByText("publish")));
    await waitFor(() => expect(view.notes).toEqual([["ok", "Publicado"]]));
  });

  it("says why a publish failed and stays", async () => {
    const view = renderEditorPart(<Probe />, {
      platform: (r) => (r.method === "PUT" ? { body: r.body } : { status: 409, body: { code: "conflict", message: "a report is missing" } }),
    });
    await act(async () => fireEvent.click(screen.getByText("publish")));
    await waitFor(() => expect(view.notes.length).toBe(1));
    expect(view.notes[0]![0]).toBe("error");
    expect(view.notes[0]![1]).toContain("a report is missing");
    expect(view.went).toEqual([]);
  });
});
