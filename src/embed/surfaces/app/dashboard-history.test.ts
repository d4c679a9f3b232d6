import { describe, expect, it } from "vitest";
import type { DashboardConfig } from "../../../schema/dashboard";
import { GROUP_WINDOW_MS, HISTORY_LIMIT, createDashboardHistory, historyKey } from "./dashboard-history";

const titled = (title: string): DashboardConfig => ({ title, widgets: [] });
const retitle = (title: string) => (c: DashboardConfig) => ({ ...c, title });

function clocked() {
  let now = 10_000;
  return { clock: () => now, tick: (ms: number) => (now += ms) };
}

describe("dashboard history", () => {
  it("undoes and redoes changes in order, and a new change drops what was undone", () => {
    const h = createDashboardHistory(titled("a"));
    h.getState().change(retitle("b"));
    h.getState().change(retitle("c"));
    h.getState().undo();
    expect(h.getState().now.title).toBe("b");
    h.getState().undo();
    expect(h.getState().now.title).toBe("a");
    h.getState().undo();
    expect(h.getState().now.title).toBe("a");
    h.getState().redo();
    expect(h.getState().now.title).toBe("b");
    expect(h.getState().future.map((c) => c.title)).toEqual(["c"]);
    h.getState().change(retitle("d"));
    expect(h.getState().future).toEqual([]);
    h.getState().redo();
    expect(h.getState().now.title).toBe("d");
    expect(h.getState().past.map((c) => c.title)).toEqual(["a", "b"]);
  });

  it("keeps at most the limit of steps, dropping the oldest", () => {
    const h = createDashboardHistory(titled("0"), { limit: 3 });
    for (let i = 1; i <= 5; i++) h.getState().change(retitle(String(i)));
    expect(h.getState().past.map((c) => c.title)).toEqual(["2", "3", "4"]);
    for (let i = 0; i < 5; i++) h.getState().undo();
    expect(h.getState().now.title).toBe("2");
    expect(HISTORY_LIMIT).toBe(100);
  });

  it("keeps the limit when redoing too", () => {
    const h = createDashboardHistory(titled("0"), { limit: 2 });
    for (let i = 1; i <= 3; i++) h.getState().change(retitle(String(i)));
    h.getState().undo();
    h.getState().redo();
    expect(h.getState().past.length).toBe(2);
  });

  it("merges edits of one group made in quick succession into one step, not others", () => {
    const { clock, tick } = clocked();
    const h = createDashboardHistory(titled(""), { clock });
    for (const title of ["S", "Sa", "Sal", "Sales"]) {
      h.getState().change(retitle(title), { group: "title" });
      tick(200);
    }
    expect(h.getState().past.map((c) => c.title)).toEqual([""]);
    tick(GROUP_WINDOW_MS);
    h.getState().change(retitle("Sales 2"), { group: "title" });
    h.getState().change((c) => ({ ...c, widgets: [] }), { group: "widget:a" });
    h.getState().change(retitle("Sales 3"));
    h.getState().change(retitle("Sales 4"));
    expect(h.getState().past.map((c) => c.title)).toEqual(["", "Sales", "Sales 2", "Sales 2", "Sales 3"]);
    h.getState().undo();
    // After an undo the next edit of the same group is a step of its own.
    h.getState().change(retitle("Sales 5"), { group: "title" });
    h.getState().change(retitle("Sales 6"), { group: "title" });
    h.getState().undo();
    expect(h.getState().now.title).toBe("Sales 3");
  });

  it("keeps typing into one field one step however long the pauses, until the focus leaves it", () => {
    const { clock, tick } = clocked();
    const h = createDashboardHistory(titled(""), { clock });
    for (const title of ["N", "No", "Not", "Note", "Notes"]) {
      h.getState().change(retitle(title), { group: "title", typing: true });
      tick(GROUP_WINDOW_MS * 3);
    }
    expect(h.getState().past.map((c) => c.title)).toEqual([""]);
    // The focus left the field: typing again is a new step.
    h.getState().seal();
    h.getState().change(retitle("Notes!"), { group: "title", typing: true });
    expect(h.getState().past.map((c) => c.title)).toEqual(["", "Notes"]);
    // A pause then a change that was not typed (a pick from a list) is its own step.
    tick(GROUP_WINDOW_MS * 3);
    h.getState().change(retitle("Picked"), { group: "title" });
    expect(h.getState().past.map((c) => c.title)).toEqual(["", "Notes", "Notes!"]);
    h.getState().undo();
    h.getState().undo();
    expect(h.getState().now.title).toBe("Notes");
  });

  it("counts a change that changes nothing as no step, and bumps the version on every step", () => {
    const h = createDashboardHistory(titled("a"));
    h.getState().change((c) => c);
    expect(h.getState().version).toBe(0);
    expect(h.getState().past).toEqual([]);
    h.getState().change(retitle("b"));
    h.getState().undo();
    h.getState().redo();
    expect(h.getState().version).toBe(3);
  });
});

describe("historyKey", () => {
  const key = (k: string, mods: Partial<Record<"ctrlKey" | "metaKey" | "shiftKey" | "altKey", boolean>> = {}) =>
    historyKey({ key: k, ctrlKey: false, metaKey: false, shiftKey: false, altKey: false, ...mods });
  it.each([
    ["z", { ctrlKey: true }, "undo"],
    ["z", { metaKey: true }, "undo"],
    ["Z", { ctrlKey: true, shiftKey: true }, "redo"],
    ["z", { metaKey: true, shiftKey: true }, "redo"],
    ["y", { ctrlKey: true }, "redo"],
    ["z", {}, null],
    ["y", { ctrlKey: true, shiftKey: true }, null],
    ["z", { ctrlKey: true, altKey: true }, null],
    ["x", { ctrlKey: true }, null],
  ] as const)("%s %o → %s", (k, mods, expected) => expect(key(k, mods)).toBe(expected));
});
