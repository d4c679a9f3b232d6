import { isNode, LineCounter, parseDocument } from "yaml";
import { ContentDictionary, dictionaryLocaleOf, TranslationLocale } from "../../schema/content-translation";
import type { DataModelProblem } from "./errors";

/** A dictionary file read: its locale and content, or every problem with its line. */
export type DictionaryFileResult = { ok: true; locale: string; dictionary: ContentDictionary } | { ok: false; problems: DataModelProblem[] };

/** True for the model tree's dictionary files (`translations/<locale>.yml`), which are not cube or view files. */
export const isDictionaryFile = (path: string) => dictionaryLocaleOf(path) !== null;

/**
 * Reads one dictionary file (docs/translation.md). A file is taken whole or not at all: any
 * problem (YAML syntax, an unknown key, a value that is not text, a locale in the file that is
 * not the file name's) is reported with the file, the YAML path and the line.
 */
export function parseDictionaryFile(file: { path: string; content: string }): DictionaryFileResult {
  const locale = dictionaryLocaleOf(file.path);
  const problem = (path: (string | number)[], message: string, line?: number): DataModelProblem => ({ file: file.path, path, line, message });
  if (locale === null || !TranslationLocale.safeParse(locale).success)
    return {
      ok: false,
      problems: [problem([], `a dictionary file is named translations/<locale>.yml with a locale tag such as de-DE, not "${file.path}"`, 1)],
    };
  const lines = new LineCounter();
  const doc = parseDocument(file.content, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length > 0)
    return { ok: false, problems: doc.errors.map((e) => problem([], `YAML syntax: ${e.message.split("\n")[0]}`, lines.linePos(e.pos[0]).line)) };
  let js: unknown;
  try {
    js = doc.toJS({ maxAliasCount: 100 }) ?? {};
  } catch (err) {
    return { ok: false, problems: [problem([], `YAML: ${(err as Error).message.split("\n")[0]}`, 1)] };
  }
  const lineOf = (path: (string | number)[]) => {
    for (let p = path; ; p = p.slice(0, -1)) {
      const node = p.length === 0 ? doc.contents : doc.getIn(p, true);
      if (isNode(node) && node.range) return lines.linePos(node.range[0]).line;
      if (p.length === 0) return 1;
    }
  };
  const parsed = ContentDictionary.safeParse(js);
  if (!parsed.success)
    return {
      ok: false,
      problems: parsed.error.issues.map((issue) => {
        const path = issue.path.map((k) => (typeof k === "symbol" ? String(k) : k));
        const keys = issue.code === "unrecognized_keys" ? issue.keys : [];
        // An unknown key is reported at its own line, not its parent's.
        const at = keys.length ? [...path, keys[0]!] : path;
        return problem(path, issue.message, lineOf(at));
      }),
    };
  if (parsed.data.locale !== undefined && parsed.data.locale !== locale)
    return { ok: false, problems: [problem(["locale"], `says "${parsed.data.locale}" but the file is ${locale}'s`, lineOf(["locale"]))] };
  return { ok: true, locale, dictionary: parsed.data };
}
