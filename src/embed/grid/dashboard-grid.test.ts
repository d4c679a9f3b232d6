import { describe, expect, it } from "vitest";
import { placedLayout } from "./dashboard-grid";

describe("placedLayout", () => {
  it("places items as react-grid-layout compacts them: moved up into any gap, never sideways, kept inside the columns", () => {
    const placed = placedLayout(
      [
        { i: "a", x: 0, y: 0, w: 6, h: 2, static: true },
        // A gap above it (a widget removed through the API) closes: it moves up, not sideways.
        { i: "b", x: 6, y: 3, w: 6, h: 2, static: true },
        // Wider than the grid: brought back inside.
        { i: "c", x: 8, y: 5, w: 20, h: 1, static: true },
      ],
      12,
    );
    const byId = Object.fromEntries(placed.map((item) => [item.i, item]));
    expect(byId.a).toMatchObject({ x: 0, y: 0, w: 6, h: 2 });
    expect(byId.b).toMatchObject({ x: 6, y: 0 });
    // Under "a", as high as it goes; every item stays static for the viewer's grid.
    expect(byId.c).toMatchObject({ y: 2 });
    expect(placed.every((item) => item.static)).toBe(true);
    expect(byId.c!.x + byId.c!.w).toBeLessThanOrEqual(12);
    expect(byId.c!.x).toBeGreaterThanOrEqual(0);
  });
});
