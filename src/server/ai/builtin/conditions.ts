/**
 * Numeric conditions: "orders above $500", "mehr als 3 Stück", "más de 3 unidades",
 * "categories with revenue above 10000". The language file rewrites the comparison into
 * `gt`/`gte`/`lt`/`lte`; the model decides what is compared: a number dimension filters rows,
 * a measure filters groups (`HAVING`) when the answer has groups, and otherwise the rows' own
 * number of the same kind (an order's amount for money, its quantity for units).
 */
import { STOPWORDS } from "../builtin-language";
import type { Condition } from "./understanding";
import { lookup, memberAliases, stem, terms, type ViewIndex } from "./view-index";
import type { MetaMember } from "../../semantic/query-engine";

/** A comparison as written: the number, the word after it ("3 units") and the words before it ("revenue above"). */
export interface WrittenCondition {
  operator: Condition["operator"];
  value: number;
  high?: number;
  unit?: string;
  before: string[];
}

// "more than 450 units sold": the unit's "sold" belongs to it (the measure Units Sold).
const COMPARISON = /\b(gt|gte|lt|lte|between) (\d+(?:\.\d+)?)(?: and (\d+(?:\.\d+)?))?(?: ([a-z]+)(?: sold\b)?)?/;
const CURRENCY = /^(dollars?|dolares|euros?|usd|eur)$/;
const OR_WORD = /^(or|oder|o|u)$/;
const NOT_A_UNIT = /^(by|in|and|or|vs|excluding|last|this|top|bottom|dollars?|dolares|euros?|usd|eur|\d.*)$/;

/**
 * Reads the comparisons of a canonical question; the unit words are taken out of the text, the
 * words before stay. `marked` is the text with each comparison in place as `#<i>` (its index in
 * `written`), for reading what an "or" stands between.
 */
export function readConditions(canonical: string): { written: WrittenCondition[]; rest: string; marked: string } {
  const written: WrittenCondition[] = [];
  let rest = canonical;
  let marked = canonical;
  for (let m = COMPARISON.exec(rest); m; m = COMPARISON.exec(rest)) {
    // "between 100 and 500" needs both bounds; "between" alone is left to the time phrases.
    if (m[1] === "between" && m[3] === undefined) break;
    const word = m[4];
    const unit = word && !NOT_A_UNIT.test(word) && !STOPWORDS.has(word) ? word : undefined;
    const before = rest
      .slice(0, m.index)
      .split(" ")
      .filter((w) => w && !STOPWORDS.has(w) && !OR_WORD.test(w))
      .slice(-3);
    const [low, high] = [Number(m[2]), Number(m[3])].sort((a, b) => a - b);
    const bounds = m[1] === "between" ? { value: low!, high: high! } : { value: Number(m[2]) };
    written.push({ operator: m[1] as Condition["operator"], ...bounds, ...(unit ? { unit } : {}), before });
    const kept = unit || CURRENCY.test(word ?? "") ? "" : (word ?? "");
    rest = rest.slice(0, m.index) + " " + kept + rest.slice(m.index + m[0].length);
    const at = marked.indexOf(m[0]);
    marked = marked.slice(0, at) + ` #${written.length - 1} ` + kept + marked.slice(at + m[0].length);
  }
  return { written, rest, marked };
}

/** Whether a word names a number dimension of the view ("quantity", "amount"): compared, not unknown. */
export function namesNumber(index: ViewIndex, word: string): boolean {
  const w = stem(word);
  return index.source.dimensions.some((d) => d.type === "number" && memberAliases(d).some((a) => terms(a).join(" ") === w));
}

/** The measure a comparison names before its number ("revenue above …"), when the view has it. */
export function measureBefore(index: ViewIndex, w: WrittenCondition): string | undefined {
  for (const words of [w.before.slice(-3), w.before.slice(-2), w.before.slice(-1)]) {
    const found = words.length ? lookup(index, words, "measure") : null;
    if (found?.kind === "measure") return index.members[found.ref]!.name;
  }
  return undefined;
}

/** The member a written comparison is on, in this view; null when the view has nothing to compare. */
export function resolveCondition(index: ViewIndex, w: WrittenCondition, opts: { grouped: boolean; money: boolean }): Condition | null {
  let target: MetaMember | undefined;
  const named = w.unit ? [[w.unit]] : [w.before.slice(-3), w.before.slice(-2), w.before.slice(-1)].filter((x) => x.length > 0);
  for (const words of named) {
    const found = lookup(index, words, w.unit ? "dimension" : "measure");
    if (found && found.kind !== "value") {
      target = index.members[found.ref];
      break;
    }
  }
  const numberDims = index.source.dimensions.filter((d) => d.type === "number" && !d.primaryKey && !/(latitude|longitude|_id)$/.test(d.name));
  // Number dimensions are not in the search index (nobody asks "by price"), but they are compared: "a quantity above 3".
  if (!target) {
    const said = named.map((words) => words.map(stem).join(" "));
    target = numberDims.find((d) => memberAliases(d).some((a) => said.includes(terms(a).join(" "))));
  }
  const rowsNumber = (money: boolean) => numberDims.find((d) => (money ? d.format === "currency" : !d.format));
  const isMeasure = target !== undefined && index.source.measures.includes(target);
  // "orders with more than 3 units": said of each order, so the order's own number, even in groups.
  const perRow =
    w.unit !== undefined &&
    w.before.some((word) => {
      const m = lookup(index, [word], "measure");
      return m?.kind === "measure" && index.members[m.ref]!.measureType === "count";
    });
  // "customers with more than 3 orders": a number of rows per something the answer does not
  // group by; no row has it as its own number, so nothing is compared (and no figure is given).
  if (target && isMeasure && target.measureType === "count" && w.unit !== undefined && !opts.grouped) return null;
  let member: MetaMember | undefined;
  // A number said with its unit ("3 units") is not the money of the question ("… or above $500").
  const money = opts.money && w.unit === undefined;
  if (target && !isMeasure && target.type === "number") member = target;
  else if (target && isMeasure && opts.grouped && !perRow && !(target.measureType === "count" && !w.unit)) member = target;
  else if (target && isMeasure) member = rowsNumber(money || target.format === "currency" || target.measureType === "count");
  else if (money) member = rowsNumber(true);
  return member ? { member: member.name, operator: w.operator, value: w.value, ...(w.high !== undefined ? { high: w.high } : {}) } : null;
}
