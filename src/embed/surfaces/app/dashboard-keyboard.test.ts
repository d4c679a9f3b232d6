import { describe, expect, it } from "vitest";
import { keyboardStep } from "./dashboard-keyboard";

const at = { x: 2, y: 3, w: 4, h: 5 };

describe("keyboardStep", () => {
  it.each([
    ["ArrowLeft", false, { kind: "move", to: { x: 1, y: 3, w: 4, h: 5 } }],
    ["ArrowRight", false, { kind: "move", to: { x: 3, y: 3, w: 4, h: 5 } }],
    ["ArrowUp", false, { kind: "move", to: { x: 2, y: 2, w: 4, h: 5 } }],
    ["ArrowDown", false, { kind: "move", to: { x: 2, y: 4, w: 4, h: 5 } }],
    ["ArrowRight", true, { kind: "resize", to: { x: 2, y: 3, w: 5, h: 5 } }],
    ["ArrowLeft", true, { kind: "resize", to: { x: 2, y: 3, w: 3, h: 5 } }],
    ["ArrowDown", true, { kind: "resize", to: { x: 2, y: 3, w: 4, h: 6 } }],
    ["ArrowUp", true, { kind: "resize", to: { x: 2, y: 3, w: 4, h: 4 } }],
  ])("%s (shift %s)", (key, shift, expected) => {
    expect(keyboardStep(at, key, shift, 12)).toEqual(expected);
  });

  it("keeps the widget inside the grid and at least one cell", () => {
    expect(keyboardStep({ x: 0, y: 0, w: 1, h: 1 }, "ArrowLeft", false, 12)).toBeNull();
    expect(keyboardStep({ x: 0, y: 0, w: 1, h: 1 }, "ArrowUp", false, 12)).toBeNull();
    expect(keyboardStep({ x: 8, y: 0, w: 4, h: 1 }, "ArrowRight", false, 12)).toBeNull();
    expect(keyboardStep({ x: 8, y: 0, w: 4, h: 1 }, "ArrowRight", true, 12)).toBeNull();
    expect(keyboardStep({ x: 0, y: 0, w: 1, h: 1 }, "ArrowLeft", true, 12)).toBeNull();
    expect(keyboardStep({ x: 0, y: 0, w: 1, h: 1 }, "ArrowUp", true, 12)).toBeNull();
  });

  it("ignores other keys", () => {
    expect(keyboardStep(at, "Enter", false, 12)).toBeNull();
  });
});
