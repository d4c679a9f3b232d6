/**
 * Machine-readable results of the bench scripts. Given `--json`, a script prints one line on
 * stdout, `{"bench": <name>, "figures": [Figure, …]}`, and its usual lines on stderr; without
 * it, it prints what it always printed. bench/run.ts collects the lines into one table.
 */

/** One measured figure, against the baseline measured in the same run where it has one. */
export interface Figure {
  /** What was measured, e.g. "round trip p50: set-color-scheme → action-result vs raw ping-pong". */
  figure: string;
  /** The measured value, in `unit`. */
  value: number;
  /** "ms", "kB", "ops/s", "%" or "" for a count. */
  unit: string;
  /** The same measure of the baseline, in `unit`; null for a figure without one. */
  baseline: number | null;
  /** value / baseline; null without a baseline. */
  ratio: number | null;
  /** The goal as docs/benchmarks.md states it ("≤ 2×"); null for a figure kept for the record. */
  goal: string | null;
  /** Whether the goal is met; null without a goal. */
  met: boolean | null;
}

/** A goal: how it reads, and the test of a figure against it. */
export interface Goal {
  text: string;
  met(f: { value: number; baseline: number | null; ratio: number | null }): boolean;
}

export const ratioAtMost = (max: number): Goal => ({ text: `≤ ${max}×`, met: (f) => f.ratio !== null && f.ratio <= max });
export const ratioAtLeast = (min: number): Goal => ({ text: `≥ ${min}×`, met: (f) => f.ratio !== null && f.ratio >= min });
export const valueAtMost = (max: number, unit: string): Goal => ({ text: `≤ ${max} ${unit}`, met: (f) => f.value <= max });

/** A figure; its ratio is value / baseline unless given. */
export function figure(name: string, value: number, unit: string, opts: { baseline?: number; goal?: Goal } = {}): Figure {
  const baseline = opts.baseline ?? null;
  const ratio = baseline === null ? null : value / baseline;
  return { figure: name, value, unit, baseline, ratio, goal: opts.goal?.text ?? null, met: opts.goal ? opts.goal.met({ value, baseline, ratio }) : null };
}

/** True when the script was asked for its JSON line. */
export const jsonOutput = process.argv.includes("--json");

/** A human-readable line: on stdout by default, on stderr under `--json` (stdout then carries only the JSON line). */
export function say(...parts: unknown[]): void {
  if (jsonOutput) console.error(...parts);
  else console.log(...parts);
}

/** Prints the JSON line of a bench when `--json` was given; does nothing otherwise. */
export function printFigures(bench: string, figures: Figure[]): void {
  if (jsonOutput) process.stdout.write(`${JSON.stringify({ bench, figures })}\n`);
}
