import { describe, expect, it } from "vitest";
import { tooltipOf } from "./chart-tooltip";

describe("tooltipOf", () => {
  it.each([
    [null, null],
    ["", null],
    [{}, null],
    [
      { Country: "DE", Revenue: "$1,200.00", Note: null },
      {
        rows: [
          ["Country", "DE"],
          ["Revenue", "$1,200.00"],
          ["Note", ""],
        ],
        text: null,
      },
    ],
    ["Berlin", { rows: null, text: "Berlin" }],
    [["a", "b"], { rows: null, text: "a, b" }],
    [42, { rows: null, text: "42" }],
  ])("%j", (value, expected) => {
    const tip = tooltipOf(value, 10, 20);
    expect(tip).toEqual(expected === null ? null : { x: 10, y: 20, ...expected });
  });
});
