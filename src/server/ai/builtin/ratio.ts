/**
 * Figures the model has no measure for, asked as a ratio of its members and computed by the
 * query contract's calculated fields (never SQL): "what share of revenue comes from
 * Electronics" (the revenue of those rows over all revenue), "percentage of orders returned in
 * 2024", and "average revenue per customer" (revenue over the count of customers).
 */
import type { CalculatedField } from "../../../schema/calculated-field";
import { SAY } from "../builtin-language";
import type { Condition, Understanding } from "./understanding";
import { lookup, stem, type ViewIndex } from "./view-index";

/** "average revenue per customer", "durchschnittlicher Umsatz pro Kunde", "ingresos medios por cliente" (canonical words). */
const AVERAGE = /\baverage\b/;
const PER = /\b(?:per|by each|by) (\w+)\b/g;

/** The count measure a word names in a view ("customer" → Customers, a distinct count), if any. */
function countMeasure(index: ViewIndex, word: string): string | undefined {
  const m = lookup(index, [stem(word)], "measure");
  const member = m?.kind === "measure" ? index.members[m.ref] : undefined;
  return member && (member.measureType === "count" || member.measureType === "count_distinct") ? member.name : undefined;
}

/**
 * "average revenue per customer": the measure averaged over a count the view has. Gives the
 * count measure and the text without "average" and "per customer"; nothing when the word after
 * "per" counts nothing in this view ("average order value by category" is a measure of its own).
 */
export function readAverage(canonical: string, index: ViewIndex): { per?: string; rest: string } {
  if (!AVERAGE.test(canonical) || /\baverage order value\b/.test(canonical)) return { rest: canonical };
  for (const m of canonical.matchAll(PER)) {
    const per = countMeasure(index, m[1]!);
    if (per) return { per, rest: canonical.replace(m[0], " ").replace(AVERAGE, " ") };
  }
  return { rest: canonical };
}

const short = (name: string) => name.split(".").pop()!;
const literal = (v: string) => `'${v.replace(/'/g, "''")}'`;
const SIGNS = { gt: ">", gte: ">=", lt: "<", lte: "<=" } as const;

/** A condition of the formula language over a member, named bare as in its view (`amount > 500`). */
function conditionFormula(c: Condition): string {
  const m = short(c.member);
  return c.operator === "between" ? `${m} >= ${c.value} and ${m} <= ${c.high}` : `${m} ${SIGNS[c.operator]} ${c.value}`;
}

/** A member's title in a view (its short title), or its name. */
const titleIn = (index: ViewIndex, name: string) => index.members.find((m) => m.name === name)?.shortTitle ?? name;

/**
 * "average revenue per customer": the measure over the count, as a calculated field, shown with
 * both figures it is made of.
 */
export function applyPer(u: Understanding, per: string, index: ViewIndex): void {
  const measure = u.measures.find((m) => m !== per) ?? u.measures[0]!;
  if (measure === per) return;
  const name = `${short(measure)}_per_${short(per)}`;
  const format = index.members.find((m) => m.name === measure)?.format;
  u.fields = [{ name, formula: `${short(measure)} / ${short(per)}`, ...(format === "currency" ? { format } : {}) }];
  u.ratio = { measure, per };
  u.measures = [`${u.view}.${name}`, measure, per];
  u.defaultMeasure = false;
  titleFields(u, index);
}

/**
 * Titles the ratio's fields in the question's language with the members' titles of `index`:
 * the model's when read, the viewer's (translated) when the answer is written.
 */
export function titleFields(u: Understanding, index: ViewIndex): void {
  const r = u.ratio;
  if (!r || !u.fields) return;
  const say = SAY[u.language];
  const mTitle = titleIn(index, r.measure);
  if (r.per !== undefined) {
    u.fields = [{ ...u.fields[0]!, title: say.perField(mTitle, titleIn(index, r.per)) }];
    return;
  }
  const said = [
    ...r.filters.map((f) => `${titleIn(index, f.member)} ${f.exclude ? "≠" : "="} ${f.values.join(" / ")}`),
    ...r.conditions.map((c) =>
      c.operator === "between" ? `${titleIn(index, c.member)} ${c.value} – ${c.high}` : `${titleIn(index, c.member)} ${SIGNS[c.operator]} ${c.value}`,
    ),
  ].join(", ");
  const [share, rows] = u.fields;
  u.fields = [
    { ...share!, title: say.shareField(mTitle, said) },
    { ...rows!, title: `${mTitle} (${said})` },
  ];
}

/**
 * "what share of revenue comes from Electronics": with no grouping, a share of the total is of
 * the rows the filters keep against all rows — the filters move into the numerator of a
 * calculated field (`revenue(where products_category = 'Electronics') / revenue`). The period
 * stays a filter of both. Not applied to groupings (each row's share of the total is then the
 * calculation), "or" alternatives, or conditions on measures (they hold for groups, not rows).
 */
export function applyShare(u: Understanding, index: ViewIndex): void {
  if (u.calculation !== "percentOfTotal" || u.time?.granularity || u.time?.part || u.periods || u.anyOf?.length) return;
  // "what share of revenue comes from Germany and France": the values named are the rows counted, not a grouping of them.
  const named = new Set(u.filters.filter((f) => !f.exclude && f.values.length > 1).map((f) => f.member));
  if (u.dimensions.some((d) => !named.has(d))) return;
  const conditions = u.conditions ?? [];
  if (!u.filters.length && !conditions.length) return;
  const measureNames = new Set(index.source.measures.map((m) => m.name));
  if (conditions.some((c) => measureNames.has(c.member))) return;
  const measure = u.measures[0]!;
  const where = [
    ...u.filters.map((f) =>
      f.values.length > 1
        ? `${short(f.member)} ${f.exclude ? "not in" : "in"} (${f.values.map(literal).join(", ")})`
        : `${short(f.member)} ${f.exclude ? "!=" : "="} ${literal(f.values[0]!)}`,
    ),
    ...conditions.map(conditionFormula),
  ].join(" and ");
  const format = index.members.find((m) => m.name === measure)?.format;
  const fields: CalculatedField[] = [
    {
      name: `${short(measure)}_share`,
      formula: `${short(measure)}(where ${where}) / ${short(measure)}`,
      format: "percent",
    },
    {
      name: `${short(measure)}_of_rows`,
      formula: `${short(measure)}(where ${where})`,
      ...(format === "currency" ? { format } : {}),
    },
  ];
  u.fields = fields;
  u.ratio = { measure, filters: u.filters, conditions };
  u.measures = fields.map((f) => `${u.view}.${f.name}`);
  u.dimensions = [];
  u.filters = [];
  delete u.conditions;
  delete u.calculation;
  titleFields(u, index);
}
