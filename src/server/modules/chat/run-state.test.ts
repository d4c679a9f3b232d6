import { describe, expect, it } from "vitest";
import { isAnswering, isFinal, next, RUN_EVENTS, RUN_STATES, type RunEvent, type RunState } from "./run-state";

/** Every transition a run may take; any other pair of state and event is refused. */
const LEGAL: [RunState, RunEvent, RunState][] = [
  ["pending", "prepared", "streaming"],
  ["pending", "found-stored", "done"],
  ["pending", "refused", "failed"],
  ["pending", "cancel", "cancelled"],
  ["streaming", "cancel", "cancelled"],
  ["streaming", "answered", "storing"],
  ["cancelled", "prepared", "cancelled"],
  ["cancelled", "found-stored", "done"],
  ["cancelled", "refused", "failed"],
  ["cancelled", "answered", "storing"],
  ["storing", "stored", "done"],
];

const legal = new Map(LEGAL.map(([from, event, to]) => [`${from} ${event}`, to]));
const ALL_PAIRS = RUN_STATES.flatMap((state) => RUN_EVENTS.map((event) => [state, event] as const));

describe("next", () => {
  it.each(LEGAL)("%s, on %s, becomes %s", (from, event, to) => {
    expect(next(from, event)).toBe(to);
  });

  it.each(ALL_PAIRS.filter(([state, event]) => !legal.has(`${state} ${event}`)))("refuses %s on %s", (state, event) => {
    expect(next(state, event)).toBeNull();
  });

  it("takes a question through to its stored answer, and a cancelled one to storing too", () => {
    const walk = (events: RunEvent[]) => events.reduce<RunState | null>((state, event) => (state === null ? null : next(state, event)), "pending");
    expect(walk(["prepared", "answered", "stored"])).toBe("done");
    expect(walk(["prepared", "cancel", "answered", "stored"])).toBe("done");
    expect(walk(["cancel", "prepared", "answered"])).toBe("storing");
    // Nothing follows the end of a run, and an answer is not stored before it is said.
    expect(walk(["prepared", "answered", "stored", "stored"])).toBeNull();
    expect(walk(["prepared", "stored"])).toBeNull();
    expect(walk(["refused", "prepared"])).toBeNull();
  });
});

describe("isAnswering and isFinal", () => {
  const TABLE: [RunState, boolean, boolean][] = [
    ["pending", true, false],
    ["streaming", true, false],
    ["cancelled", true, false],
    ["storing", false, false],
    ["done", false, true],
    ["failed", false, true],
  ];

  it("covers every state", () => {
    expect(TABLE.map(([state]) => state)).toEqual([...RUN_STATES]);
  });

  it.each(TABLE)("%s: answering %s, final %s", (state, answering, final) => {
    expect(isAnswering(state)).toBe(answering);
    expect(isFinal(state)).toBe(final);
  });

  it("leaves no final state a way out", () => {
    for (const state of RUN_STATES.filter(isFinal)) for (const event of RUN_EVENTS) expect(next(state, event)).toBeNull();
  });
});
