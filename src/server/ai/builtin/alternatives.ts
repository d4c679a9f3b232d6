/**
 * Filters joined by "or" (oder, o/u): "orders in Germany or France" (one dimension's values:
 * any of them, one figure), "orders above $500 or below $10" (either condition), "orders from
 * Germany with more than 3 units, or orders above $500" (either group of conditions, when the
 * words after "or" name what is counted again). The question's text is cut at each "or"; the
 * filters of each piece are found in order, and the ones the "or" stands between become one
 * group of alternatives.
 */
import { STOPWORDS } from "../builtin-language";
import type { Alternative, Condition, Understanding } from "./understanding";
import { lookup, scan, type Match, type ViewIndex } from "./view-index";

type ValueFilter = Understanding["filters"][number];

/** One filter as said: a value of a dimension, or a comparison. */
export type Term = { kind: "value"; member: string; value: string } | { kind: "condition"; condition: Condition };

/** What the "or"s of a question say: alternatives (each a list of terms that all hold), and the dimensions whose values are any of several. */
export interface OrReading {
  /** Groups of alternatives; each group holds when one of its alternatives holds (every term of it). */
  groups: Term[][][];
  /** Dimensions with values joined by "or" ("Germany or France"): one figure, not grouped. */
  anyOfValues: string[];
}

const OR = /\b(?:or|oder|o|u)\b/g;

/**
 * The terms of one piece of a marked text (comparisons as `#<i>`, resolved in `conditions`),
 * in the order they are written; values after "excluding" are left out (they are no "or" term).
 */
export function termsOf(index: ViewIndex, piece: string, conditions: Condition[]): Term[] {
  const terms: Term[] = [];
  let excluding = false;
  for (const part of piece.split(/(#\d+)/)) {
    const token = /^#(\d+)$/.exec(part);
    if (token) {
      const condition = conditions[Number(token[1])];
      if (condition) terms.push({ kind: "condition", condition });
      continue;
    }
    const [kept, ...after] = part.split(/\bexcluding\b/);
    if (!excluding) {
      const found: Match[] = [];
      scan(index, kept!.split(" ").filter(Boolean), "dimension", found);
      for (const m of found) if (m.kind === "value") terms.push({ kind: "value", member: index.values[m.ref]!.member, value: index.values[m.ref]!.value });
    }
    if (after.length) excluding = true;
  }
  return terms;
}

/** Whether a piece starts (after words that mean nothing) by naming a measure again: "… or orders above $500". */
function restartsClause(index: ViewIndex, piece: string): boolean {
  const first = piece.split(" ").find((w) => w && !STOPWORDS.has(w) && w !== "either");
  if (!first) return false;
  return lookup(index, [first], "measure")?.kind === "measure";
}

/**
 * Reads the "or"s of a question in one view: `marked` is the canonical text with each comparison
 * as `#<i>`, `conditions` the comparisons resolved in this view. Null when no "or" stands
 * between filters.
 */
export function readAlternatives(index: ViewIndex, marked: string, conditions: Condition[]): OrReading | null {
  const pieces = marked.split(OR);
  if (pieces.length < 2) return null;
  const perPiece = pieces.map((p) => termsOf(index, p, conditions));
  const anyOfValues = new Set<string>();
  const boundaries: { i: number; clause: boolean }[] = [];
  for (let i = 0; i + 1 < pieces.length; i++) {
    const last = perPiece[i]!.at(-1);
    const first = perPiece[i + 1]![0];
    if (!last || !first) continue; // "revenue or orders": not between filters
    // "Germany or France": values of one dimension, any of them.
    if (last.kind === "value" && first.kind === "value" && last.member === first.member) {
      anyOfValues.add(last.member);
      continue;
    }
    boundaries.push({ i, clause: restartsClause(index, pieces[i + 1]!) });
  }
  if (boundaries.length === 0) return anyOfValues.size ? { groups: [], anyOfValues: [...anyOfValues] } : null;
  // "(A and B) or C": every "or" starts a clause again, so each piece's terms are one alternative.
  if (boundaries.every((b) => b.clause)) return { groups: [perPiece.filter((terms) => terms.length > 0)], anyOfValues: [...anyOfValues] };
  // "A and (B or C)": the "or" stands between the terms next to it; chains ("B or C or D") are one group.
  const groups: Term[][][] = [];
  let open: Term[][] | null = null;
  let openEnd = -1;
  for (const b of boundaries) {
    const last = perPiece[b.i]!.at(-1)!;
    const first = perPiece[b.i + 1]![0]!;
    if (open && openEnd === b.i && perPiece[b.i]!.length === 1) open.push([first]);
    else {
      open = [[last], [first]];
      groups.push(open);
    }
    openEnd = b.i + 1;
  }
  return { groups, anyOfValues: [...anyOfValues] };
}

/** The value filters that all hold, without the values an "or" groups. */
export function withoutGrouped(filters: ValueFilter[], groups: Term[][][]): ValueFilter[] {
  const terms = groups.flat(2);
  const values = (member: string) => new Set(terms.flatMap((t) => (t.kind === "value" && t.member === member ? [t.value] : [])));
  return filters.map((f) => (f.exclude ? f : { ...f, values: f.values.filter((v) => !values(f.member).has(v)) })).filter((f) => f.values.length > 0);
}

/**
 * Sets the "or" groups on an understanding: their terms leave the filters that all hold, and a
 * dimension whose values are any of several is not grouped by (unless asked "by" it). False
 * when a group mixes a measure's condition with a row's filter: groups (`HAVING`) and rows
 * cannot be one "or".
 */
export function applyAlternatives(u: Understanding, ors: OrReading, index: ViewIndex, askedBy: string[]): boolean {
  const measures = new Set(index.source.measures.map((m) => m.name));
  const onMeasure = (t: Term) => t.kind === "condition" && measures.has(t.condition.member);
  for (const group of ors.groups) {
    const terms = group.flat();
    if (terms.some(onMeasure) && !terms.every(onMeasure)) return false;
  }
  u.dimensions = u.dimensions.filter((d) => !ors.anyOfValues.includes(d) || askedBy.includes(d));
  if (ors.groups.length === 0) return true;
  u.filters = withoutGrouped(u.filters, ors.groups);
  const grouped = new Set(ors.groups.flat(2).flatMap((t) => (t.kind === "condition" ? [t.condition] : [])));
  const kept = (u.conditions ?? []).filter((c) => !grouped.has(c));
  if (kept.length) u.conditions = kept;
  else delete u.conditions;
  u.anyOf = ors.groups.map((group) => group.map(alternativeOf));
  return true;
}

function alternativeOf(terms: Term[]): Alternative {
  const filters: Alternative["filters"] = [];
  for (const t of terms) {
    if (t.kind !== "value") continue;
    const same = filters.find((f) => f.member === t.member);
    if (same) same.values.push(t.value);
    else filters.push({ member: t.member, values: [t.value] });
  }
  return { filters, conditions: terms.flatMap((t) => (t.kind === "condition" ? [t.condition] : [])) };
}
