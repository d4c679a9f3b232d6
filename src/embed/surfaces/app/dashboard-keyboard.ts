/**
 * Moving and resizing the selected dashboard widget from the keyboard: arrow keys move it one
 * grid cell, Shift+arrow keys make it a cell wider, narrower, taller or shorter, inside the grid.
 */

export interface Cell {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** The widget's place after a key, or null when the key is not a move or resize (or changes nothing). */
export function keyboardStep(at: Cell, key: string, shift: boolean, cols: number): { kind: "move" | "resize"; to: Cell } | null {
  const dx = key === "ArrowLeft" ? -1 : key === "ArrowRight" ? 1 : 0;
  const dy = key === "ArrowUp" ? -1 : key === "ArrowDown" ? 1 : 0;
  if (!dx && !dy) return null;
  const to = shift
    ? { ...at, w: Math.min(Math.max(1, at.w + dx), cols - at.x), h: Math.max(1, at.h + dy) }
    : { ...at, x: Math.min(Math.max(0, at.x + dx), cols - at.w), y: Math.max(0, at.y + dy) };
  if (to.x === at.x && to.y === at.y && to.w === at.w && to.h === at.h) return null;
  return { kind: shift ? "resize" : "move", to };
}
