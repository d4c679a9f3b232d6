/**
 * Stable category colours: the first time a dashboard shows a member's categories, they are
 * ordered (sorted, as vega would) and each gets its slot in the palette; later results (after a
 * filter, a refresh, an export) reuse those slots and new categories take the next free ones.
 * So "completed" keeps its colour when a filter leaves it alone on the chart.
 */
export class CategoryColorRegistry {
  private readonly slots = new Map<string, Map<string, number>>();

  /** Palette slot of each value of `member`, assigning new slots to values not seen before. */
  slotsFor(member: string, values: readonly string[]): number[] {
    let known = this.slots.get(member);
    if (!known) {
      known = new Map();
      this.slots.set(member, known);
    }
    const fresh = [...new Set(values)].filter((v) => !known.has(v)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    for (const value of fresh) known.set(value, known.size);
    return values.map((v) => known.get(v)!);
  }

  clear(): void {
    this.slots.clear();
  }
}

/** The registry of the page (one dashboard per embed page). */
export const categoryColors = new CategoryColorRegistry();
