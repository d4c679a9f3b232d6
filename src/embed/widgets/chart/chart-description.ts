/** Text alternative of a chart: what it shows and the range of its first measure. */
import { t, tCount, type SupportedLocale } from "../../i18n";
import { formatNumber } from "../../i18n";
import { numericValue } from "../query/format-cell";

export function describeChart(
  locale: SupportedLocale,
  title: string,
  rows: readonly Record<string, unknown>[],
  measure: { key: string; title: string } | null,
): string {
  // "1 data point", "2 data points": the count's plural form by the locale's rules.
  const points = tCount(locale, "chart.points", rows.length);
  if (!measure || rows.length === 0) return t(locale, "chart.summaryShort", { title, points });
  const values = rows.map((r) => numericValue(r[measure.key])).filter((n): n is number => n !== null);
  if (values.length === 0) return t(locale, "chart.summaryShort", { title, points });
  return t(locale, "chart.summary", {
    title,
    points,
    measure: measure.title,
    min: formatNumber(locale, Math.min(...values), { decimalPlaces: 0 }),
    max: formatNumber(locale, Math.max(...values), { decimalPlaces: 0 }),
  });
}
