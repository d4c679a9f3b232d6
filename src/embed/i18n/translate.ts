/** UI strings: `t(locale, key, vars)` with `{name}` placeholders. */
import type { SupportedLocale } from "./locales";
import { getNumberFormat } from "./formatters";
import { MESSAGE_CATALOGS, type MessageKey } from "./messages";

export type MessageVariables = Record<string, string | number>;

/**
 * Looks up a UI string and fills `{name}` placeholders; numbers are formatted for the
 * locale. An unknown placeholder stays as written so a missing variable is visible.
 */
export function t(locale: SupportedLocale, key: MessageKey, vars?: MessageVariables): string {
  const template = MESSAGE_CATALOGS[locale]?.[key] ?? MESSAGE_CATALOGS["en-US"][key];
  if (!vars) return template;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const value = vars[name];
    if (value === undefined) return whole;
    return typeof value === "number" ? getNumberFormat(locale).format(value) : value;
  });
}

type PluralBaseOf<K> = K extends `${infer Base}.one` ? (`${Base}.other` extends MessageKey ? Base : never) : never;

/** Keys that have a `.one` / `.other` plural pair, without the suffix (e.g. `rows`). */
export type PluralMessageBase = PluralBaseOf<MessageKey>;

/** Picks the plural form for `count` by the locale's plural rules and fills `{count}`. */
export function tCount(locale: SupportedLocale, base: PluralMessageBase, count: number): string {
  const category = new Intl.PluralRules(locale).select(count);
  const key = (category === "one" ? `${base}.one` : `${base}.other`) as MessageKey;
  return t(locale, key, { count });
}
