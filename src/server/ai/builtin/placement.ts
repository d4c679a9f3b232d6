/**
 * What one view places of a question: the measures, groupings and values it names (values after
 * "excluding" are left out), the words it places nowhere, and which of those were asked "by".
 */
import { lookup, scan, type Match, type ViewIndex } from "./view-index";

export interface Found {
  measures: Match[];
  groups: Match[];
  values: Match[];
  excluded: Match[];
  /** Words placed nowhere; `groupLeft` of them asked "by". */
  left: string[];
  groupLeft: string[];
  /** The entity a grouping was said of: `customers` of `customers_name` in "by customer segment". */
  entity?: string;
}

/** Reads a question against one view; the view's score is how much of the question it placed. */
export function readAgainst(index: ViewIndex, text: string, ranked: boolean): Found {
  const found: Found = { measures: [], groups: [], values: [], excluded: [], left: [], groupLeft: [] };
  text.split(/\bby\b/).forEach((segment, i) => {
    // "excluding cancelled orders": the values after "excluding" are left out; its other words name what is counted.
    const [kept, ...excluding] = segment.split(/\bexcluding\b/);
    // "top 5 customers by revenue": what is ranked comes first, the measure after "by".
    const prefer = (i === 0) !== ranked ? "measure" : "dimension";
    const matches: Match[] = [];
    const left = scan(index, kept!.split(" ").filter(Boolean), prefer, matches);
    // "which city has the most customers": ranked without "by", what follows the ranked thing is the measure.
    if (ranked && i === 0 && !text.includes(" by ") && !matches.some((m) => m.kind === "measure")) {
      const dims = matches.filter((m) => m.kind === "dimension");
      const last = dims.length > 1 ? dims[dims.length - 1]! : undefined;
      const measure = last?.words ? lookup(index, last.words, "measure") : null;
      if (last && measure?.kind === "measure") matches.splice(matches.indexOf(last), 1, { ...measure, words: last.words });
    }
    found.left.push(...left);
    if (i > 0) found.groupLeft.push(...left);
    for (const m of matches) {
      if (m.kind === "value") found.values.push(m);
      else if (m.kind === "dimension") found.groups.push(i > 0 ? { ...m, afterBy: true } : m);
      else found.measures.push(m);
      const prefix = m.kind === "dimension" ? /^([a-z]+)_/.exec(index.members[m.ref]!.name.split(".").pop()!)?.[1] : undefined;
      if (i > 0 && prefix) found.entity = prefix;
    }
    for (const part of excluding) {
      const out: Match[] = [];
      found.left.push(...scan(index, part.split(" ").filter(Boolean), "dimension", out));
      found.excluded.push(...out.filter((m) => m.kind === "value"));
    }
  });
  return found;
}

export const placedCount = (f: Found) => f.measures.length + f.groups.length + f.values.length + f.excluded.length;
/** Words that are no term: numbers and one- or two-letter words. */
export const isTerm = (w: string) => w.length > 2 && !/^\d/.test(w);
