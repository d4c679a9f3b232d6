import { describe, expect, it } from "vitest";
import { createCommitPacer, SLICE_BUDGET_MS } from "./paced-commits";

describe("createCommitPacer", () => {
  function rig(costMs: number) {
    let clock = 0;
    const slices: (() => void)[] = [];
    const committed: number[][] = [];
    let current: number[] = [];
    const pacer = createCommitPacer(
      (next) => slices.push(next),
      () => clock,
      (update) => {
        update();
        clock += costMs;
      },
    );
    const runSlice = () => {
      current = [];
      slices.shift()!();
      committed.push(current);
    };
    return { pacer, slices, committed, runSlice, record: (n: number) => () => current.push(n) };
  }

  it("commits updates in slices that stay within the budget, in order, yielding between them", () => {
    const { pacer, slices, committed, runSlice, record } = rig(5);
    for (let i = 0; i < 7; i++) pacer.pace(record(i));
    // Nothing runs until the page hands the thread over.
    expect(committed).toEqual([]);
    expect(slices).toHaveLength(1);
    while (slices.length) runSlice();
    // 5 ms each within a 12 ms budget: three a slice (the third starts at 10 ms).
    expect(committed).toEqual([[0, 1, 2], [3, 4, 5], [6]]);
    expect(pacer.pending).toBe(0);
    expect(SLICE_BUDGET_MS).toBeLessThan(50);
  });

  it("commits at least one update a slice however long it takes, and starts again after going idle", () => {
    const { pacer, slices, committed, runSlice, record } = rig(80);
    pacer.pace(record(1));
    pacer.pace(record(2));
    while (slices.length) runSlice();
    expect(committed).toEqual([[1], [2]]);
    pacer.pace(record(3));
    expect(slices).toHaveLength(1);
    runSlice();
    expect(committed.at(-1)).toEqual([3]);
  });
});
