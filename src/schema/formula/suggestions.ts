/** Edit distance (insertions, deletions, substitutions) between two words. */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}

/**
 * The known name nearest to `written` (case aside), when it is near enough to be a slip: a
 * third of the word's letters (at least one) may differ. Ties go to the first candidate.
 */
export function nearestName(written: string, candidates: Iterable<string>): string | undefined {
  const target = written.toLowerCase();
  const allowed = Math.max(1, Math.floor(target.length / 3));
  let best: { name: string; d: number } | undefined;
  for (const name of candidates) {
    if (Math.abs(name.length - target.length) > allowed) continue;
    const d = distance(target, name.toLowerCase());
    if (d <= allowed && (!best || d < best.d)) best = { name, d };
  }
  return best?.name;
}

/** `; did you mean "revenue"?` for the nearest name, or nothing. */
export function didYouMean(near: string | undefined): string {
  return near === undefined ? "" : `; did you mean "${near}"?`;
}
