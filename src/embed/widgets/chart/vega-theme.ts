/**
 * Vega config for the active theme and colour scheme, and d3 format locales built from Intl
 * so axis labels and tooltips follow the viewer's locale.
 */

export interface ChartPalette {
  scheme: "light" | "dark";
  /** Brand colour (embedTheme.primaryColor) that leads the category range. */
  primary: string;
  text: string;
  mutedText: string;
  grid: string;
  font: string;
}

const LIGHT_CATEGORY = ["#4f46e5", "#0ea5e9", "#f59e0b", "#10b981", "#ef4444", "#8b5cf6", "#ec4899", "#14b8a6", "#f97316", "#64748b"];
const DARK_CATEGORY = ["#818cf8", "#38bdf8", "#fbbf24", "#34d399", "#f87171", "#a78bfa", "#f472b6", "#2dd4bf", "#fb923c", "#94a3b8"];

/** Category palette led by the brand colour (dropping the default lead colour it replaces). */
export function categoryRange(palette: ChartPalette): string[] {
  const base = palette.scheme === "dark" ? DARK_CATEGORY : LIGHT_CATEGORY;
  return [palette.primary, ...base.slice(1)];
}

/**
 * Vega expression for compact axis labels: K, M, B from a thousand up (one style on an axis: 5K
 * beside 10K, never 5,000), the label as formatted below. The compact figure takes the place of
 * the formatted label's digits, so what the axis's format puts around them stays: a currency
 * sign before or after ("$50K", "50K $"), a sign ("−$2M", "+5K").
 */
export const COMPACT_NUMBER_LABEL = String.raw`abs(datum.value) >= 1e3 ? replace(datum.label, regexp('\\d(?:[\\d.,\\u00a0\\u202f\\u2009 ]*\\d)?'), abs(datum.value) >= 1e9 ? format(abs(datum.value) / 1e9, '~r') + 'B' : abs(datum.value) >= 1e6 ? format(abs(datum.value) / 1e6, '~r') + 'M' : format(abs(datum.value) / 1e3, '~r') + 'K') : datum.label`;

export function buildVegaConfig(palette: ChartPalette): Record<string, unknown> {
  const category = categoryRange(palette);
  const axis = {
    domainColor: palette.grid,
    gridColor: palette.grid,
    tickColor: palette.grid,
    labelColor: palette.mutedText,
    titleColor: palette.mutedText,
    labelFont: palette.font,
    titleFont: palette.font,
    labelFontSize: 11,
    titleFontSize: 11,
    titleFontWeight: 500,
    labelPadding: 6,
    gridOpacity: 1,
  };
  return {
    background: "transparent",
    font: palette.font,
    padding: 4,
    view: { stroke: "transparent" },
    axis,
    axisX: { grid: false, domain: true, ticks: false, labelAngle: 0, labelOverlap: "parity", labelSeparation: 10 },
    axisY: { domain: false, ticks: false, gridDash: [3, 3] },
    axisBand: { grid: false },
    // Large values read as 2.2M / 850K / 5K (in the viewer's number locale) instead of 2,200,000.
    axisQuantitative: { labelExpr: COMPACT_NUMBER_LABEL },
    legend: {
      labelColor: palette.text,
      titleColor: palette.mutedText,
      labelFont: palette.font,
      titleFont: palette.font,
      symbolType: "circle",
      orient: "bottom",
      direction: "horizontal",
      columns: 4,
      labelFontSize: 11,
      titleFontSize: 11,
    },
    title: { color: palette.text, font: palette.font, fontSize: 13, fontWeight: 600, anchor: "start" },
    header: { labelColor: palette.text, titleColor: palette.text },
    range: { category, ordinal: { scheme: "blues" }, ramp: { scheme: palette.scheme === "dark" ? "purples" : "blues" } },
    mark: { color: palette.primary },
    bar: { color: palette.primary, cornerRadiusEnd: 3 },
    line: { color: palette.primary, strokeWidth: 2 },
    area: { color: palette.primary, opacity: 0.85 },
    point: { color: palette.primary, filled: true },
    circle: { color: palette.primary },
    rect: { color: palette.primary },
    arc: { stroke: palette.scheme === "dark" ? "#111827" : "#ffffff", strokeWidth: 1 },
    text: { color: palette.text, font: palette.font },
    geoshape: { stroke: palette.grid, fill: "transparent" },
  };
}

const numberLocales = new Map<string, ReturnType<typeof buildNumberFormatLocale>>();
const timeLocales = new Map<string, ReturnType<typeof buildTimeFormatLocale>>();

/** d3-format locale definition from Intl for a BCP 47 locale (built once per locale and currency: Intl formatters are costly). */
export function numberFormatLocale(locale: string, currency = "USD") {
  const key = `${locale} ${currency}`;
  let found = numberLocales.get(key);
  if (!found) numberLocales.set(key, (found = buildNumberFormatLocale(locale, currency)));
  return found;
}

/** d3-time-format locale definition from Intl (built once per locale). */
export function timeFormatLocale(locale: string) {
  let found = timeLocales.get(locale);
  if (!found) timeLocales.set(locale, (found = buildTimeFormatLocale(locale)));
  return found;
}

function buildNumberFormatLocale(locale: string, currency: string) {
  const parts = new Intl.NumberFormat(locale).formatToParts(1234567.5);
  const group = parts.find((p) => p.type === "group")?.value ?? ",";
  const decimal = parts.find((p) => p.type === "decimal")?.value ?? ".";
  const currencyParts = new Intl.NumberFormat(locale, { style: "currency", currency }).formatToParts(1);
  const symbol = currencyParts.find((p) => p.type === "currency")?.value ?? "$";
  const symbolFirst = currencyParts.findIndex((p) => p.type === "currency") < currencyParts.findIndex((p) => p.type === "integer");
  const spacer = currencyParts.some((p) => p.type === "literal") ? "\u00a0" : "";
  return {
    decimal,
    thousands: group,
    grouping: [3],
    currency: symbolFirst ? [symbol + spacer, ""] : ["", spacer + symbol],
  };
}

function buildTimeFormatLocale(locale: string) {
  const month = (style: "long" | "short", m: number) =>
    new Intl.DateTimeFormat(locale, { month: style, timeZone: "UTC" }).format(new Date(Date.UTC(2021, m, 15)));
  // 2021-08-01 was a Sunday: d3 lists days from Sunday.
  const day = (style: "long" | "short", d: number) =>
    new Intl.DateTimeFormat(locale, { weekday: style, timeZone: "UTC" }).format(new Date(Date.UTC(2021, 7, 1 + d)));
  const range = (n: number) => Array.from({ length: n }, (_, i) => i);
  const hour12 = new Intl.DateTimeFormat(locale, { hour: "numeric" }).resolvedOptions().hour12 === true;
  return {
    dateTime: "%x, %X",
    date: locale.startsWith("en-US") ? "%m/%d/%Y" : locale.startsWith("ja") ? "%Y/%m/%d" : "%d.%m.%Y",
    time: hour12 ? "%I:%M:%S %p" : "%H:%M:%S",
    periods: ["AM", "PM"],
    days: range(7).map((d) => day("long", d)),
    shortDays: range(7).map((d) => day("short", d)),
    months: range(12).map((m) => month("long", m)),
    shortMonths: range(12).map((m) => month("short", m)),
  };
}
