/**
 * Human titles, in the viewer's language, for the columns the builder's calculations add: a
 * share of the total ("Revenue, % of total"), and a comparison's periods and change ("Revenue,
 * previous period", "Revenue, change %"). The server titles them in English with its ranges; the
 * builder's table, chart and pivot show these instead.
 */
import type { QueryResult } from "../../shell/platform-api";
import type { AppMessageKey } from "./app-messages";
import type { CompareMode } from "./report-calculations";

type Text = (key: AppMessageKey, vars?: Record<string, string | number>) => string;

const COMPARE_WORDS: Record<string, AppMessageKey> = { current: "colCurrent", change: "colChange", relativeChange: "colRelativeChange" };
const PERIOD_WORDS: Record<string, AppMessageKey> = { change: "colChange", percent_change: "colRelativeChange" };

/** The title of a column made of `measure` (`m`, or a compared `m.current`). */
function measureWords(measure: string, mode: CompareMode, titleOf: (m: string) => string, text: Text): string {
  const [base, output] = /^(.*)\.(baseline|current|change|relativeChange)$/.exec(measure)?.slice(1) ?? [measure, null];
  if (!output) return titleOf(measure);
  return compareWords(base!, output, mode, titleOf, text);
}

function compareWords(measure: string, output: string, mode: CompareMode, titleOf: (m: string) => string, text: Text): string {
  const key =
    output === "baseline" || output === "previous" ? (mode === "yearBefore" ? "colYearAgo" : "colPrevious") : (COMPARE_WORDS[output] ?? PERIOD_WORDS[output]);
  return key ? text(key, { measure: titleOf(measure) }) : titleOf(measure);
}

/** A group of columns with the ones `titleFor` names titled so (title and short title alike). */
function retitled<T extends { title: string; shortTitle: string }>(group: Record<string, T>, titleFor: (entry: T) => string | null): Record<string, T> {
  return Object.fromEntries(
    Object.entries(group).map(([key, entry]) => {
      const title = titleFor(entry);
      return [key, title ? { ...entry, title, shortTitle: title } : entry];
    }),
  );
}

/** The result with its comparison and calculation columns titled in the viewer's words. */
export function withHumanTitles(result: QueryResult, mode: CompareMode, titleOf: (m: string) => string, text: Text): QueryResult {
  const { compare, periodComparisons, calculations } = result.annotation;
  return {
    ...result,
    annotation: {
      ...result.annotation,
      ...(compare ? { compare: retitled(compare, (e) => compareWords(e.measure, e.output, mode, titleOf, text)) } : {}),
      ...(periodComparisons ? { periodComparisons: retitled(periodComparisons, (e) => compareWords(e.measure, e.output, mode, titleOf, text)) } : {}),
      ...(calculations
        ? {
            calculations: retitled(calculations, (e) =>
              e.calculation === "percentOfTotal" ? text("colShare", { measure: measureWords(e.measure, mode, titleOf, text) }) : null,
            ),
          }
        : {}),
    },
  };
}
