import type { ContentDictionary } from "../../../schema/content-translation";
import type { DataModel } from "../../semantic";
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
}

/** A query result as the engine answers it. */
export interface TranslatableResult {
  data: Record<string, unknown>[];
  annotation: { measures: Record<string, Annotated>; dimensions: Record<string, Annotated>; timeDimensions: Record<string, Annotated> };
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
  const titled = (group: Record<string, Annotated>): Record<string, Annotated & { valueLabels?: Record<string, string> }> =>
    Object.fromEntries(
      Object.entries(group).map(([column, a]) => {
        const own = Object.hasOwn(members, memberOf(column)) ? members[memberOf(column)] : undefined;
        const title = text(a.title);
        return [column, { ...a, title: title === a.title && own ? own : title, shortTitle: own ?? text(a.shortTitle) }];
      }),
    );
  const dimensions = titled(result.annotation.dimensions);
  for (const column of Object.keys(dimensions)) {
    const labels = valueLabelsOf(result.data, column, dictionary, names ? { names, display: codeDisplayOf(dimensions[column]!) } : null);
    if (labels) dimensions[column] = { ...dimensions[column], valueLabels: labels };
  }
  return {
    ...result,
    annotation: { ...result.annotation, measures: titled(result.annotation.measures), dimensions, timeDimensions: titled(result.annotation.timeDimensions) },
  } as T;
}

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
