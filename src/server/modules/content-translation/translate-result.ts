import type { ContentDictionary } from "../../../schema/content-translation";
import { compareOutputs, type CompareOutput, type TimePart } from "../../../schema/semantic-query";
import type { DataModel } from "../../semantic";
import { compareLabel, labelLanguageOf, localLabel, splitLabel, TIME_PART_NAMES, type WallRange } from "../../semantic/column-labels";
import { textOf } from "./translate-dashboard";

/** A dimension whose values are codes shown by name: `meta: { display: country }` (ISO 3166 regions) or `language` (BCP 47). */
export type CodeDisplay = "country" | "language";

/** How a column's values are displayed as names, from its member's `meta.display` in the model. */
export function codeDisplayOf(annotation: { meta?: Record<string, unknown> }): CodeDisplay | null {
  const display = annotation.meta?.display;
  return display === "country" || display === "language" ? display : null;
}

/** How a model member's values are displayed as names, from its cube dimension's `meta.display`. */
export function codeDisplayOfMember(model: DataModel, member: string): CodeDisplay | null {
  const [source, name] = member.split(".");
  if (!source || !name) return null;
  const viewMember = model.views.get(source)?.members.get(name);
  const cube = model.cubes.get(viewMember ? viewMember.cube : source);
  return codeDisplayOf({ meta: cube?.dimensions.get(viewMember ? viewMember.member : name)?.meta });
}

/**
 * Labels of a dimension's values for a filter picker: the dictionary's, else a country or
 * language code's name in the locale. Only the values given (those the viewer may see) are labelled.
 */
export function labelValues(values: readonly unknown[], member: string, dictionary: ContentDictionary | null, locale: string, display: CodeDisplay | null) {
  const names = display ? codeNames(locale) : null;
  const rows = values.map((value) => ({ [member]: value }));
  return valueLabelsOf(rows, member, dictionary, names ? { names, display } : null);
}

interface Annotated {
  title: string;
  shortTitle: string;
  meta?: Record<string, unknown>;
  /** A time dimension read as a part of time ("Order Date (day of week)"). */
  timePart?: TimePart;
}

/** A worked-out column: the measure column it is made of, and what it is of it. */
interface Derived extends Annotated {
  measure: string;
  output?: string;
  ranges?: { baseline: WallRange; current: WallRange };
}

/** A query result as the engine answers it. */
export interface TranslatableResult {
  data: Record<string, unknown>[];
  annotation: {
    measures: Record<string, Annotated>;
    dimensions: Record<string, Annotated>;
    timeDimensions: Record<string, Annotated>;
    periodComparisons?: Record<string, Derived>;
    compare?: Record<string, Derived>;
    calculations?: Record<string, Derived>;
  };
}

const memberOf = (column: string) => column.split(".").slice(0, 2).join(".");

/**
 * A result for a viewer of `locale`: member titles of the annotation translated (column headers,
 * axis titles, legends), and per dimension column `valueLabels`, the text shown for each raw value
 * of *these rows* that has one (a dictionary entry, or a country or language code's name in the
 * locale). Rows are never changed: filters and drills keep using raw values. Returns a copy.
 */
export function translateResult<T extends TranslatableResult>(result: T, dictionary: ContentDictionary | null, locale: string): T {
  const names = codeNames(locale);
  if (!dictionary && !names) return result;
  const text = dictionary ? textOf(dictionary) : <S>(s: S) => s;
  const members = dictionary?.members ?? {};
  const ownTitle = (member: string) => (Object.hasOwn(members, member) ? members[member] : undefined);
  const lang = labelLanguageOf(locale);
  /** A member's titles in the locale: its dictionary entry, else each title's text. */
  const inLocale = (member: string, title: string, shortTitle: string) => {
    const own = ownTitle(member);
    const t = text(title);
    return { title: t === title && own ? own : t, shortTitle: own ?? text(shortTitle) };
  };
  /** "Revenue (label)": the measure's (or dimension's) titles in the locale, with the label `labelFor` says. */
  const relabelled = <A extends Annotated>(a: A, member: string, labelFor: (label: string) => string): A => {
    const long = splitLabel(a.title);
    const short = splitLabel(a.shortTitle);
    if (!long || !short) return { ...a, title: text(a.title), shortTitle: text(a.shortTitle) };
    const base = inLocale(member, long.title, short.title);
    return { ...a, title: `${base.title} (${labelFor(long.label)})`, shortTitle: `${base.shortTitle} (${labelFor(short.label)})` };
  };
  const titled = (group: Record<string, Annotated>): Record<string, Annotated & { valueLabels?: Record<string, string> }> =>
    Object.fromEntries(
      Object.entries(group).map(([column, a]) => {
        const part = a.timePart;
        if (part) return [column, relabelled(a, memberOf(column), () => TIME_PART_NAMES[lang][part])];
        return [column, { ...a, ...inLocale(memberOf(column), a.title, a.shortTitle) }];
      }),
    );
  /** A worked-out group: its measure's title in the locale, its label in the locale's language. */
  const derived = (group: Record<string, Derived> | undefined, labelFor: (a: Derived, label: string) => string) =>
    group &&
    Object.fromEntries(
      Object.entries(group).map(([column, a]) => {
        // Made of a plain measure ("sales.revenue"): its dictionary title may stand for it. Made of
        // a worked-out column ("sales.revenue.current"): only the title's own text is looked up.
        const member = memberOf(a.measure) === a.measure ? a.measure : "";
        return [column, relabelled(a, member, (label) => labelFor(a, label))];
      }),
    );
  const dimensions = titled(result.annotation.dimensions);
  for (const column of Object.keys(dimensions)) {
    const labels = valueLabelsOf(result.data, column, dictionary, names ? { names, display: codeDisplayOf(dimensions[column]!) } : null);
    if (labels) dimensions[column] = { ...dimensions[column], valueLabels: labels };
  }
  const { periodComparisons, compare, calculations } = result.annotation;
  const plain = (_a: Derived, label: string) => localLabel(lang, label);
  return {
    ...result,
    annotation: {
      ...result.annotation,
      measures: titled(result.annotation.measures),
      dimensions,
      timeDimensions: titled(result.annotation.timeDimensions),
      ...(periodComparisons ? { periodComparisons: derived(periodComparisons, plain) } : {}),
      ...(calculations ? { calculations: derived(calculations, plain) } : {}),
      ...(compare
        ? {
            compare: derived(compare, (a, label) =>
              a.ranges && isCompareOutput(a.output) ? compareLabel(locale, a.output, a.ranges) : localLabel(lang, label),
            ),
          }
        : {}),
    },
  } as T;
}

const isCompareOutput = (o: unknown): o is CompareOutput => typeof o === "string" && (compareOutputs as readonly string[]).includes(o);

type CodeNames = Record<CodeDisplay, Intl.DisplayNames>;

/** Display names by locale: made once each (a pair costs ~0.2 ms, and every translated result needs one). */
const codeNamesByLocale = new Map<string, CodeNames | null>();

function codeNames(locale: string): CodeNames | null {
  if (codeNamesByLocale.has(locale)) return codeNamesByLocale.get(locale)!;
  let names: CodeNames | null;
  try {
    names = {
      country: new Intl.DisplayNames([locale], { type: "region", fallback: "none" }),
      language: new Intl.DisplayNames([locale], { type: "language", fallback: "none" }),
    };
  } catch {
    names = null;
  }
  // Locales are canonical tags checked at the edge; the bound keeps a stream of odd ones from growing it.
  if (codeNamesByLocale.size >= 1000) codeNamesByLocale.clear();
  codeNamesByLocale.set(locale, names);
  return names;
}

const REGION = /^(?:[A-Za-z]{2}|\d{3})$/;
const LANGUAGE = /^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,8})*$/;

function codeName(names: CodeNames, display: CodeDisplay, value: string): string | undefined {
  try {
    if (display === "country") return REGION.test(value) ? names.country.of(value.toUpperCase()) : undefined;
    return LANGUAGE.test(value) ? names.language.of(value) : undefined;
  } catch {
    return undefined;
  }
}

function valueLabelsOf(
  rows: Record<string, unknown>[],
  column: string,
  dictionary: ContentDictionary | null,
  codes: { names: CodeNames; display: CodeDisplay | null } | null,
): Record<string, string> | null {
  const own = dictionary?.values?.[memberOf(column)];
  if (!own && !codes?.display) return null;
  // No prototype: a raw value such as "__proto__" is a key like any other.
  const labels: Record<string, string> = Object.create(null) as Record<string, string>;
  let any = false;
  for (const row of rows) {
    const value = row[column];
    if (typeof value !== "string" || Object.hasOwn(labels, value)) continue;
    const label = own && Object.hasOwn(own, value) ? own[value] : codes?.display ? codeName(codes.names, codes.display, value) : undefined;
    if (label === undefined || label === value) continue;
    labels[value] = label;
    any = true;
  }
  return any ? labels : null;
}
