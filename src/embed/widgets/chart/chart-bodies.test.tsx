// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ReportSnapshot } from "../../../schema/dashboard";
import type { QueryAnnotation } from "../../shell/platform-api";
import { createEmbedStore } from "../../state/embed-store";
import { EmbedStoreProvider } from "../../state/use-embed-store";
import { HtmlBody, KpiBody } from "./chart-bodies";

afterEach(cleanup);

const annotation = {
  measures: { "sales.revenue": { title: "Sales Revenue", shortTitle: "Revenue", type: "number", format: "currency" } },
  dimensions: {},
  timeDimensions: {},
} as unknown as QueryAnnotation;
const snapshot = { id: 1, kind: "kpi", title: "Revenue", periodComparisons: null } as unknown as ReportSnapshot;
const ctx = { locale: "en-US" as const, timezone: "UTC" };

describe("a CHART widget's KPI and HTML bodies", () => {
  it("shows the latest period's figure, without cents in the thousands, and drills into that period's row", () => {
    const onDrill = vi.fn();
    const rows = [
      { "sales.created_at.quarter": "2025-04-01", "sales.revenue": 12345.67 },
      { "sales.created_at.quarter": "2025-01-01", "sales.revenue": 999.5 },
    ];
    render(
      <EmbedStoreProvider store={createEmbedStore({ locale: "en-US" })}>
        <KpiBody
          rows={rows}
          measure="sales.revenue"
          snapshot={snapshot}
          composed={{ measures: ["sales.revenue"], timeDimensions: [{ dimension: "sales.created_at", granularity: "quarter" }] }}
          annotation={annotation}
          ctx={ctx}
          onDrill={onDrill}
        />
      </EmbedStoreProvider>,
    );
    const value = screen.getByRole("button", { name: "Revenue: $12,346" });
    fireEvent.click(value);
    expect(onDrill).toHaveBeenCalledWith("sales.revenue", 12345.67, rows[0]);
  });

  it("fills the HTML template with the first row, a renamed column answering to the report's name, formatted", () => {
    const { container } = render(
      <EmbedStoreProvider store={createEmbedStore({ locale: "de-DE" })}>
        <HtmlBody
          html="<p>Umsatz: {{sales.revenue}}</p>"
          rows={[{ "sales.revenue_eur": 1234.5 }]}
          aliases={{ "sales.revenue": "sales.revenue_eur" }}
          annotation={
            { ...annotation, measures: { "sales.revenue_eur": { title: "Umsatz", shortTitle: "Umsatz", type: "number" } } } as unknown as QueryAnnotation
          }
          snapshot={snapshot}
          ctx={{ locale: "de-DE", timezone: "UTC" }}
          title="Umsatz"
        />
      </EmbedStoreProvider>,
    );
    const frame = container.querySelector("iframe")!;
    expect(frame.getAttribute("title")).toBe("Umsatz");
    expect(frame.getAttribute("sandbox")).toBe("");
    // German grouping: the value was found under its new name and formatted in the viewer's locale.
    expect(frame.getAttribute("srcdoc")).toContain("<p>Umsatz: 1.235</p>");
  });
});
