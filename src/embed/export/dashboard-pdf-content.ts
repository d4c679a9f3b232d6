/**
 * The dashboard PDF's content, gathered from the dashboard on screen: the widgets in the order
 * they are seen (top to bottom, left to right), each with its title as shown (translated), and
 * its body from the widget's printable provider (tables, charts: grid/printables.ts) or else
 * from the page: a KPI's figures, a text's paragraphs, and a picture of anything else (an HTML
 * report, whose sandboxed document has no text the page can read).
 */
import type { DashboardFilter } from "../../schema/dashboard-filters";
import type { PrintableRegistry } from "../grid/printables";
import { formatDateTime, formatNumber, t, type SupportedLocale } from "../i18n";
import { elementToPng } from "./image-export";
import type { DashboardPdfModel, PdfBody, PdfSection } from "./pdf-document";

/** Widget types that are controls, not content: the filters in effect are listed in the PDF's header instead. */
const CONTROL_TYPES = new Set(["FILTER", "TIME_GRAIN", "TABS_CONTAINER"]);

const OPERATOR_SIGNS: Partial<Record<DashboardFilter["operator"], string>> = {
  not_equals: "≠ ",
  greater_than: "> ",
  greater_than_or_equal: "≥ ",
  less_than: "< ",
  less_than_or_equal: "≤ ",
  not_contains: "≠ ",
  not_starts_with: "≠ ",
  not_ends_with: "≠ ",
};

/**
 * "Filters: Status: completed, shipped · Order date: Jan 1, 2025 – Jun 30, 2025"; "Filters: All"
 * without any. Values by their labels (translations, country names), dates and numbers in the
 * viewer's locale.
 */
export function filtersLineOf(
  locale: SupportedLocale,
  filters: Readonly<Record<string, DashboardFilter>>,
  labelOf: (member: string) => string,
  valueLabel: (member: string, value: unknown) => string | undefined,
): string {
  const shown = (member: string, value: unknown): string => {
    const label = valueLabel(member, value);
    if (label !== undefined) return label;
    if (typeof value === "number") return formatNumber(locale, value);
    if (typeof value === "string" && /^\d{4}-\d{2}-\d{2}$/.test(value)) return formatDateTime(locale, "UTC", `${value}T00:00:00Z`, { dateStyle: "medium" });
    return String(value);
  };
  const parts = Object.values(filters).map((filter) => {
    const values = filter.value === undefined ? [] : Array.isArray(filter.value) ? filter.value : [filter.value];
    let text: string;
    if (filter.operator === "between") text = values.map((v) => shown(filter.member, v)).join(" – ");
    else if (filter.operator === "is_null" || filter.operator === "is_empty") text = "∅";
    else if (filter.operator === "is_not_null" || filter.operator === "is_not_empty") text = "≠ ∅";
    else {
      const list = values.map((v) => shown(filter.member, v)).join(", ");
      const quoted = /contains|starts_with|ends_with/.test(filter.operator)
        ? `${/contains|ends_with/.test(filter.operator) ? "…" : ""}${list}${/contains|starts_with/.test(filter.operator) ? "…" : ""}`
        : list;
      text = (OPERATOR_SIGNS[filter.operator] ?? "") + quoted;
    }
    return `${labelOf(filter.member)}: ${text}`;
  });
  return `${t(locale, "filters")}: ${parts.length > 0 ? parts.join(" · ") : t(locale, "all")}`;
}

/** An element's text, whitespace collapsed (its text content: `innerText` is empty for a cell the page skips rendering off screen). */
function textOf(element: Element | null): string | null {
  const text = element?.textContent ?? "";
  const trimmed = text.replace(/\s+/g, " ").trim();
  return trimmed || null;
}

/** A KPI card's figures, as shown. */
function figureOf(body: HTMLElement): PdfBody | null {
  const kpi = body.querySelector(".svc-kpi");
  if (!kpi) return null;
  const change = kpi.querySelector(".svc-kpi-change");
  const trend = change?.classList.contains("is-up") ? "up" : change?.classList.contains("is-down") ? "down" : "flat";
  return {
    kind: "figure",
    value: textOf(kpi.querySelector(".svc-kpi-value")) ?? "",
    change: textOf(change),
    trend,
    note: textOf(kpi.querySelector(".svc-kpi-compare")),
  };
}

/** Paragraphs of a text or AI widget: its block elements' text (its buttons and notes for the screen left out). */
function paragraphsOf(body: HTMLElement): string[] {
  const root = body.querySelector<HTMLElement>(".svc-ai-markdown, .svc-markdown") ?? body;
  const blocks = [...root.querySelectorAll("p, li, h1, h2, h3, h4, h5, h6, blockquote, pre, td")].filter(
    (block) =>
      !block.parentElement?.closest("p, li, blockquote, pre, td") && !block.closest("[data-export-ignore], .svc-ai-actions, [role='status'], [role='alert']"),
  );
  return (blocks.length > 0 ? blocks : [root])
    .map((block) => {
      const text = textOf(block);
      return text && block.tagName === "LI" ? `• ${text}` : text;
    })
    .filter((text): text is string => !!text);
}

/** A picture of the widget's body, as JPEG (a dashboard PDF stays small). */
async function pictureOf(body: HTMLElement, background: string): Promise<PdfBody | null> {
  const { width, height } = body.getBoundingClientRect();
  if (width < 1 || height < 1) return null;
  const png = await elementToPng(body, background);
  const image = new Image();
  image.src = png;
  await image.decode();
  const canvas = document.createElement("canvas");
  canvas.width = image.naturalWidth;
  canvas.height = image.naturalHeight;
  const context = canvas.getContext("2d");
  if (!context) return { kind: "image", dataUrl: png, width, height };
  context.fillStyle = background;
  context.fillRect(0, 0, canvas.width, canvas.height);
  context.drawImage(image, 0, 0);
  return { kind: "image", dataUrl: canvas.toDataURL("image/jpeg", 0.85), width, height };
}

async function bodyOf(section: HTMLElement, type: string, printables: PrintableRegistry, background: string): Promise<PdfBody | null> {
  const widgetId = section.dataset.testid!.slice("widget-".length);
  const provided = await printables.providerOf(widgetId)?.();
  if (provided) return provided;
  const body = section.querySelector<HTMLElement>(":scope > .svc-widget-body");
  if (!body) return null;
  const figure = figureOf(body);
  if (figure) return figure;
  if (type === "TEXT" || type === "AI") {
    const paragraphs = paragraphsOf(body);
    return paragraphs.length > 0 ? { kind: "text", paragraphs } : null;
  }
  // A drawing on the page without a provider (it has SVG when the chart worker drew it).
  const svg = body.querySelector(".svc-chart-canvas > svg");
  if (svg) return { kind: "chart", svg: new XMLSerializer().serializeToString(svg) };
  return pictureOf(body, background);
}

/** The selected tab of the tab container a widget is in, if any. */
function tabOf(section: HTMLElement): Element | null {
  const container = section.parentElement?.closest<HTMLElement>("section.svc-widget[data-widget-type='TABS_CONTAINER']");
  return container?.querySelector("[role='tab'][aria-selected='true']") ?? null;
}

export async function collectDashboardPdf(input: {
  element: HTMLElement;
  title: string;
  description: string | null;
  filtersLine: string;
  printables: PrintableRegistry;
  /** The page's background, for pictures. */
  background: string;
}): Promise<DashboardPdfModel> {
  const shown = [...input.element.querySelectorAll<HTMLElement>("section.svc-widget[data-testid^='widget-']")]
    .filter((section) => !CONTROL_TYPES.has(section.dataset.widgetType ?? "") && section.dataset.state === "ready")
    .map((section) => ({ section, box: section.getBoundingClientRect() }))
    // A widget in a hidden tab has no box: the PDF holds what the viewer sees.
    .filter(({ box }) => box.width > 0 && box.height > 0)
    .sort((a, b) => Math.round(a.box.top) - Math.round(b.box.top) || Math.round(a.box.left) - Math.round(b.box.left));
  const sections: PdfSection[] = [];
  for (const { section } of shown) {
    const type = section.dataset.widgetType ?? "";
    const body = await bodyOf(section, type, input.printables, input.background);
    if (!body) continue;
    const header = section.querySelector(":scope > .svc-widget-header");
    sections.push({
      widgetId: section.dataset.testid!.slice("widget-".length),
      // A widget alone in a tab without a title of its own goes by the tab's.
      title: textOf(header?.querySelector(".svc-widget-title") ?? null) ?? textOf(tabOf(section)),
      subtitle: textOf(header?.querySelector(".svc-widget-description") ?? null),
      body,
    });
  }
  return { title: input.title, description: input.description, filtersLine: input.filtersLine, sections };
}
