/**
 * Figures the model has no measure for, asked as a ratio of its members and computed by the
 * query contract's calculated fields (never SQL): "what share of revenue comes from
 * Electronics" (the revenue of those rows over all revenue), "percentage of orders returned in
 * 2024", and "average revenue per customer" (revenue over the count of customers).
 */
import type { CalculatedField } from "../../../schema/calculated-field";
import { normalize, SAY } from "../builtin-language";
import { shownValue, type ValueLabel } from "./format";
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
 * count measure and the text without "average" and "per customer". When no word after "per" or
 * "by" counts anything in this view ("average revenue by category"), the average is per row of
 * the view — its own count (`implicit`; `applyPer` takes it only for a sum) — and "by category"
 * stays a grouping. Nothing for "average order value", a measure of its own, or a view without a
 * count.
 */
export function readAverage(canonical: string, index: ViewIndex): { per?: string; implicit?: boolean; rest: string } {
  if (!AVERAGE.test(canonical) || /\baverage order value\b/.test(canonical)) return { rest: canonical };
  for (const m of canonical.matchAll(PER)) {
    const per = countMeasure(index, m[1]!);
    if (per) return { per, rest: canonical.replace(m[0], " ").replace(AVERAGE, " ") };
  }
  const rows = index.source.measures.find((m) => m.measureType === "count");
  return rows ? { per: rows.name, implicit: true, rest: canonical.replace(AVERAGE, " ") } : { rest: canonical };
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
 * A calculated ratio's title, the same in every language: "Revenue / Customers", "Umsatz / Kunden".
 * The ratio sign, not "per": the denominator is a count's title, in the plural, and "per
 * customer" or "pro Kunde" would need a singular or another case the model does not hold.
 */
const ratioTitle = (measure: string, per: string) => `${measure} / ${per}`;

/**
 * "average revenue per customer": the measure over the count, as a calculated field, shown with
 * both figures it is made of; "average revenue by category" (`implicit`: the view's own count),
 * only of a sum, per group. False when it does not apply (the average of a count or an average).
 */
export function applyPer(u: Understanding, per: string, index: ViewIndex, implicit = false): boolean {
  const measure = u.measures.find((m) => m !== per) ?? u.measures[0]!;
  if (measure === per) return false;
  if (implicit && (u.defaultMeasure || index.members.find((m) => m.name === measure)?.measureType !== "sum")) return false;
  const name = `${short(measure)}_per_${short(per)}`;
  const format = index.members.find((m) => m.name === measure)?.format;
  u.fields = [{ name, formula: `${short(measure)} / ${short(per)}`, ...(format === "currency" ? { format } : {}) }];
  u.ratio = { measure, per };
  u.measures = [`${u.view}.${name}`, measure, per];
  u.defaultMeasure = false;
  titleFields(u, index);
  return true;
}

/**
 * Titles the ratio's fields in the question's language with the members' titles of `index`:
 * the model's when read, the viewer's (translated) when the answer is written, and values by
 * their labels (`valueLabel`) when given.
 */
export function titleFields(u: Understanding, index: ViewIndex, valueLabel?: ValueLabel): void {
  const r = u.ratio;
  if (!r || !u.fields) return;
  const say = SAY[u.language];
  const mTitle = titleIn(index, r.measure);
  const shown = (member: string, values: string[]) => values.map((v) => shownValue(valueLabel, member, v)).join(" / ");
  if (r.per !== undefined) {
    u.fields = [{ ...u.fields[0]!, title: ratioTitle(mTitle, titleIn(index, r.per)) }];
    return;
  }
  if (r.each) {
    const each = r.each;
    r.title = mTitle;
    u.fields = u.fields.map((f, i) => {
      const said = `${titleIn(index, each.member)} = ${shown(each.member, [each.values[Math.floor(i / 2)]!])}`;
      return { ...f, title: i % 2 === 0 ? say.shareField(mTitle, said) : `${mTitle} (${said})` };
    });
    return;
  }
  const said = [
    ...r.filters.map((f) => `${titleIn(index, f.member)} ${f.exclude ? "≠" : "="} ${shown(f.member, f.values)}`),
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
 * "share of revenue by country for DE and FR" (`asked`: the groupings asked "by"): values named
 * of the dimension grouped by choose which shares are shown, each of the whole (`applyShareEach`).
 */
export function applyShare(u: Understanding, index: ViewIndex, asked: string[] = []): void {
  if (u.calculation !== "percentOfTotal" || u.time?.granularity || u.time?.part || u.periods || u.anyOf?.length) return;
  const conditions = u.conditions ?? [];
  const measureNames = new Set(index.source.measures.map((m) => m.name));
  if (conditions.some((c) => measureNames.has(c.member))) return;
  const each = u.filters.find((f) => !f.exclude && asked.includes(f.member) && u.dimensions.length === 1 && u.dimensions[0] === f.member);
  if (each && each.values.length <= MAX_EACH) return applyShareEach(u, index, each);
  // "what share of revenue comes from Germany and France": the values named are the rows counted, not a grouping of them.
  const named = new Set(u.filters.filter((f) => !f.exclude && f.values.length > 1).map((f) => f.member));
  if (u.dimensions.some((d) => !named.has(d))) return;
  if (!u.filters.length && !conditions.length) return;
  const measure = u.measures[0]!;
  const where = [...u.filters.map(filterFormula), ...conditions.map(conditionFormula)].join(" and ");
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

/** A value filter in the formula language (`customers_country in ('DE', 'FR')`). */
function filterFormula(f: Understanding["filters"][number]): string {
  return f.values.length > 1
    ? `${short(f.member)} ${f.exclude ? "not in" : "in"} (${f.values.map(literal).join(", ")})`
    : `${short(f.member)} ${f.exclude ? "!=" : "="} ${literal(f.values[0]!)}`;
}

/** At most this many values get a share each (two fields a value, within a query's 20). */
const MAX_EACH = 10;

/** A value as a part of a field's name: `DE` → `de`, `New York` → `new_york`; its position when that is no name or taken. */
function slugs(values: string[]): string[] {
  const taken = new Set<string>();
  return values.map((v, i) => {
    const slug = normalize(v)
      .replace(/[^a-z0-9]+/g, "_")
      .replace(/^_+|_+$/g, "");
    const name = /^[a-z][a-z0-9_]{0,40}$/.test(slug) && !taken.has(slug) ? slug : `${i + 1}`;
    taken.add(name);
    return name;
  });
}

/**
 * "share of revenue by country for DE and FR": each value's share of the whole — of all the
 * rows the other filters and the period keep, not of the values named — beside its figure, as
 * calculated fields of one row (`revenue(where customers_country = 'DE') / revenue`). A share
 * "within the selection" would change with the values named; this one does not.
 */
function applyShareEach(u: Understanding, index: ViewIndex, each: Understanding["filters"][number]): void {
  const measure = u.measures[0]!;
  const m = short(measure);
  const format = index.members.find((x) => x.name === measure)?.format;
  const names = slugs(each.values);
  u.fields = each.values.flatMap((value, i): CalculatedField[] => {
    const where = `${short(each.member)} = ${literal(value)}`;
    return [
      { name: `${m}_share_${names[i]}`, formula: `${m}(where ${where}) / ${m}`, format: "percent" },
      { name: `${m}_of_${names[i]}`, formula: `${m}(where ${where})`, ...(format === "currency" ? { format } : {}) },
    ];
  });
  u.ratio = { measure, each: { member: each.member, values: each.values } };
  u.measures = u.fields.map((f) => `${u.view}.${f.name}`);
  u.dimensions = [];
  u.filters = u.filters.filter((f) => f !== each);
  delete u.calculation;
  titleFields(u, index);
}
