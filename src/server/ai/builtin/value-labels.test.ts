import { describe, expect, it } from "vitest";
import type { ContentDictionary } from "../../../schema/content-translation";
import { labelValues } from "../../modules/content-translation/translate-result";
import { describeUnderstanding } from "./describe";
import { DEMO_REFERENCE, demoViews } from "./demo-views";
import type { ValueLabel } from "./format";
import { summarize } from "./summary";
import type { Understanding } from "./understanding";

// The builtin engine's sentences name dimension values as the tables show them: the deployment
// dictionary's `values`, and countries by name in the viewer's language (docs/translation.md).

const dictionaries: Record<string, ContentDictionary> = {
  "de-DE": { values: { "sales.status": { completed: "abgeschlossen", shipped: "versandt" } } },
  "es-ES": { values: { "sales.status": { completed: "completado", shipped: "enviado" } } },
};

/** What the chat's context gets from `valueLabeler` (content-translation/apply.ts), without its database read. */
function labeler(locale: string): ValueLabel {
  const display = (member: string) => (member === "sales.customers_country" ? "country" : null);
  return (member, value) => (typeof value === "string" ? labelValues([value], member, dictionaries[locale]!, locale, display(member))?.[value] : undefined);
}

const base: Understanding = { language: "en", view: "sales", measures: ["sales.revenue"], dimensions: [], filters: [], defaultMeasure: false, ignored: [] };
const u = (over: Partial<Understanding>): Understanding => ({ ...base, ...over });
const columns = [{ key: "sales.revenue", title: "Umsatz", format: "currency" }];

describe("values in the builtin engine's sentences", () => {
  it("names filter values and compared values by their German labels", () => {
    const text = describeUnderstanding(
      u({
        language: "de",
        filters: [
          { member: "sales.status", values: ["completed", "shipped"] },
          { member: "sales.customers_country", values: ["DE"] },
        ],
        segments: { member: "sales.customers_country", baseline: "FR", current: "DE" },
      }),
      demoViews(),
      DEMO_REFERENCE,
      labeler("de-DE"),
    );
    expect(text).toContain("= abgeschlossen / versandt");
    expect(text).toContain("= Deutschland");
    expect(text).toContain("Deutschland gegenüber Frankreich");
    expect(text).not.toMatch(/\bcompleted\b|= DE\b/);
  });

  it("names the leaders by their Spanish labels, countries by name", () => {
    const rows = [
      { "sales.customers_country": "US", "sales.revenue": 300 },
      { "sales.customers_country": "DE", "sales.revenue": 200 },
      { "sales.customers_country": "XX", "sales.revenue": 100 },
    ];
    const text = summarize(u({ language: "es", dimensions: ["sales.customers_country"] }), rows, columns, labeler("es-ES"));
    expect(text).toMatch(/^\*\*Estados Unidos\*\* encabeza Umsatz con/);
    expect(text).toContain("Alemania (");
    // A code without a name stays as it is.
    expect(text).toContain("XX (");
    const statuses = summarize(
      u({ language: "es", dimensions: ["sales.status"] }),
      [
        { "sales.status": "shipped", "sales.revenue": 50 },
        { "sales.status": "completed", "sales.revenue": 80 },
      ],
      columns,
      labeler("es-ES"),
    );
    expect(statuses).toMatch(/^\*\*completado\*\* encabeza Umsatz con .*enviado \(/);
  });

  it("keeps raw values where no label is known (no dictionary, no locale)", () => {
    const text = summarize(u({ dimensions: ["sales.status"] }), [{ "sales.status": "completed", "sales.revenue": 1 }], columns);
    expect(text).toContain("**completed**");
  });
});
