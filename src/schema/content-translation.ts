import { z } from "zod";
import { SafeText } from "./common";

/**
 * Content translation (docs/translation.md): one dictionary per locale and deployment, kept in
 * the model tree as `translations/<locale>.yml` and editable through the API. Translations are
 * plain text: every surface shows them escaped, never as HTML.
 */

/** Folder of the model tree that holds the dictionaries. */
export const TRANSLATIONS_DIR = "translations";
/** Longest translated text. */
export const TRANSLATION_TEXT_MAX = 2000;
/** Most entries (texts, members and values together) one dictionary holds. */
export const TRANSLATION_MAX_ENTRIES = 20_000;

/** A BCP 47 tag as a file name and path parameter carry it: `de-DE`, `es`, `pt-BR`, `zh-Hant-TW`. */
export const TranslationLocale = SafeText.min(2)
  .max(35)
  .regex(/^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})*$/, "must be a locale tag such as de-DE or es")
  .refine((tag) => isCanonicalLocale(tag), "must be a valid BCP 47 locale tag written in its canonical case (de-DE, not de-de)")
  .meta({ description: "A BCP 47 locale tag in canonical case: `de-DE`, `es`, `pt-BR`." });

/** True when `tag` is a valid locale already written as `Intl` writes it. */
export function isCanonicalLocale(tag: string): boolean {
  try {
    return Intl.getCanonicalLocales(tag)[0] === tag;
  } catch {
    return false;
  }
}

const Text = SafeText.trim().min(1).max(TRANSLATION_TEXT_MAX);
const SourceKey = SafeText.min(1).max(TRANSLATION_TEXT_MAX);
const MemberKey = SafeText.regex(/^[_a-zA-Z][_a-zA-Z0-9]*\.[_a-zA-Z][_a-zA-Z0-9]*$/, "must be a member name <view>.<member>").max(255);

/** The dictionary of one locale. Every part is optional; an empty dictionary translates nothing. */
export const ContentDictionary = z
  .object({
    locale: TranslationLocale.optional().meta({ description: "The locale, when written in the file: must match the file name." }),
    texts: z.record(SourceKey, Text).optional().meta({
      description:
        "Source text → translation, applied to every title, description, filter label, tab title, axis title and member title whose text is exactly the source.",
    }),
    members: z
      .record(MemberKey, Text)
      .optional()
      .meta({ description: "Member (`<view>.<member>`) → its title; wins over `texts` for that member's column headers, axis titles and legends." }),
    values: z
      .record(MemberKey, z.record(SourceKey, Text))
      .optional()
      .meta({ description: "Dimension (`<view>.<member>`) → raw value → the text shown for it. The raw value stays what filters use." }),
  })
  .strict()
  .check((ctx) => {
    const d = ctx.value;
    const entries =
      Object.keys(d.texts ?? {}).length + Object.keys(d.members ?? {}).length + Object.values(d.values ?? {}).reduce((n, v) => n + Object.keys(v).length, 0);
    if (entries > TRANSLATION_MAX_ENTRIES)
      ctx.issues.push({ code: "custom", path: [], message: `holds ${entries} entries; at most ${TRANSLATION_MAX_ENTRIES}`, input: d });
  })
  .meta({ id: "ContentDictionary" });
export type ContentDictionary = z.infer<typeof ContentDictionary>;

/** `GET …/translations`: the locales with a dictionary. */
export const TranslationLocaleList = z
  .object({
    locales: z.array(z.object({ locale: z.string(), path: z.string(), entries: z.number().int() })),
  })
  .meta({ id: "TranslationLocaleList" });

/** `GET …/translations/{locale}`: a locale's dictionary as the main branch holds it. */
export const ContentDictionaryFile = z
  .object({
    locale: z.string(),
    path: z.string().meta({ description: "Its file in the model tree (`translations/<locale>.yml`)." }),
    dictionary: ContentDictionary,
  })
  .meta({ id: "ContentDictionaryFile" });

/** `PUT …/translations/{locale}`: the commit on main that wrote it (null when nothing changed). */
export const ContentDictionaryWriteResult = z
  .object({
    locale: z.string(),
    path: z.string(),
    commit: z.object({ id: z.number().int() }).nullable(),
    dictionary: ContentDictionary,
  })
  .meta({ id: "ContentDictionaryWriteResult" });

/** One piece of the deployment's content without a translation in a locale. */
export const MissingTranslation = z
  .object({
    kind: z.enum(["text", "member", "value"]),
    source: z.string().meta({ description: "The source text (for `value`: the raw value)." }),
    member: z.string().optional().meta({ description: "For `member` and `value`: the member." }),
    where: z.array(z.string()).meta({ description: "Where the text appears: `dashboard:<slug>`, `report:<name>`, `model`, or `dictionary:<locale>`." }),
  })
  .meta({ id: "MissingTranslation" });
export type MissingTranslation = z.infer<typeof MissingTranslation>;

/** `GET …/translations/{locale}/missing`. */
export const MissingTranslationReport = z
  .object({
    locale: z.string(),
    total: z.number().int().meta({ description: "Pieces of content that want a translation." }),
    translated: z.number().int(),
    missing: z.array(MissingTranslation),
  })
  .meta({ id: "MissingTranslationReport" });
export type MissingTranslationReport = z.infer<typeof MissingTranslationReport>;

/** The model-tree path of a locale's dictionary. */
export const dictionaryPath = (locale: string) => `${TRANSLATIONS_DIR}/${locale}.yml`;

/** The locale of a dictionary path (`translations/de-DE.yml` → `de-DE`), or null for any other model file. */
export function dictionaryLocaleOf(path: string): string | null {
  const m = /^translations\/([^/]+)\.ya?ml$/.exec(path);
  return m ? m[1]! : null;
}
