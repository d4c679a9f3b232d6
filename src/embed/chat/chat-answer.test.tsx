// @vitest-environment jsdom
import { cleanup, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { calculationsQuery, calculationsResult, compareQuery, compareResult } from "../export/result-fixtures";
import type { QueryResult, SemanticQuery } from "../shell/platform-api";
import { answerColumnsOf, queryPartOf } from "./answer-columns";
import type { ChatMessageView, ChatPart } from "./chat-api";
import { ChatAnswer } from "./chat-answer";

afterEach(cleanup);

/** The parts one run_query call gives (src/server/ai/tools.ts): the query, then a table of the annotated columns. */
function toolParts(query: SemanticQuery, result: QueryResult, at: number): ChatPart[] {
  const groups = ["timeDimensions", "dimensions", "measures", "periodComparisons", "compare", "calculations"] as const;
  const columns = groups.flatMap((g) =>
    Object.entries((result.annotation[g] ?? {}) as Record<string, { shortTitle: string; type: string; format?: string }>).map(([key, a]) => ({
      key,
      title: a.shortTitle,
      type: a.type,
      ...(a.format ? { format: a.format } : {}),
    })),
  );
  return [
    { id: `q${at}`, type: "query", query },
    { id: `t${at}`, type: "table", columns, rows: result.data },
  ];
}

function renderAnswer(parts: ChatPart[], locale: string) {
  const message: ChatMessageView = { id: "m", role: "assistant", status: "completed", content: "", parts };
  render(<ChatAnswer message={message} locale={locale} showQuery={false} />);
  return screen.getAllByTestId("chat-table").map((table) => ({
    headers: within(table)
      .getAllByRole("columnheader")
      .map((h) => h.textContent),
    rows: within(table)
      .getAllByRole("row")
      .slice(1)
      .map((r) =>
        within(r)
          .getAllByRole("cell")
          .map((c) => (c.textContent ?? "").replace(/\u00a0/g, " ")),
      ),
  }));
}

describe("ChatAnswer's table", () => {
  it.each([
    [
      "compare",
      "en-US",
      compareQuery,
      compareResult,
      ["Products Category", "Revenue (Q1 2024)", "Revenue (Q1 2025)", "Revenue (change)", "Revenue (% change)"],
      ["Games", "$800.00", "$700.00", "-$100.00", "-12.5%"],
    ],
    ["compare", "de-DE", compareQuery, compareResult, null, ["Books", "1.000,00 $", "1.250,00 $", "+250,00 $", "+25 %"]],
    [
      "calculations",
      "en-US",
      calculationsQuery,
      calculationsResult,
      ["Products Category", "Revenue", "Returned share", "Revenue (% of total)", "Revenue (running total)", "Revenue (rank)"],
      ["Games", "$250.00", "12.5%", "25%", "$1,000.00", "2"],
    ],
    ["calculations", "de-DE", calculationsQuery, calculationsResult, null, ["Books", "750,00 $", "4 %", "75 %", "750,00 $", "1"]],
  ])("shows a %s answer in %s with titles and formats", (_kind, locale, query, result, headers, row) => {
    const [table] = renderAnswer(toolParts(query, result, 0), locale);
    if (headers) expect(table!.headers).toEqual(headers);
    expect(table!.rows).toContainEqual(row);
  });

  it("signs the changes of a compare table only, beside a table of another query", () => {
    const parts = [...toolParts(calculationsQuery, calculationsResult, 0), ...toolParts(compareQuery, compareResult, 1)];
    const [calculations, compare] = renderAnswer(parts, "en-US");
    expect(calculations!.rows[0]).toEqual(["Books", "$750.00", "4%", "75%", "$750.00", "1"]);
    expect(compare!.rows[0]).toEqual(["Books", "$1,000.00", "$1,250.00", "+$250.00", "+25%"]);
  });
});

describe("answerColumnsOf", () => {
  it.each([
    ["a change of a compared measure", "sales.revenue.change", { compare: {}, measures: ["sales.revenue"] }, true],
    ["a relative change", "sales.revenue.relativeChange", { compare: {}, measures: ["sales.revenue"] }, true],
    ["the current value", "sales.revenue.current", { compare: {}, measures: ["sales.revenue"] }, false],
    ["a measure named like an output, without compare", "sales.change", { measures: ["sales.change"] }, false],
    ["a column of a measure the query does not compare", "sales.count.change", { compare: {}, measures: ["sales.revenue"] }, false],
  ])("signs %s: %s", (_what, key, query, signed) => {
    const columns = answerColumnsOf({ id: "t", type: "table", columns: [{ key, title: key, type: "number" }] }, { id: "q", type: "query", query });
    expect(columns[0]?.signed === true).toBe(signed);
  });

  it("takes the output when the platform names it, and drops columns without a key", () => {
    const part: ChatPart = {
      id: "t",
      type: "table",
      columns: [{ key: "x", title: "X", type: "number", output: "change", format: "percent", timePart: "nonsense" }, { title: "no key" }, 7],
    };
    expect(answerColumnsOf(part, undefined)).toEqual([{ key: "x", title: "X", type: "number", annotationFormat: "percent", signed: true }]);
  });

  it("shows a value by its label where the platform sends one, and the raw value otherwise", () => {
    const table: ChatPart = {
      id: "t",
      type: "table",
      columns: [
        { key: "sales.customers_country", title: "Land", type: "string", valueLabels: { DE: "Deutschland", FR: 7 } },
        { key: "sales.revenue", title: "Umsatz", type: "number" },
      ],
      rows: [
        { "sales.customers_country": "DE", "sales.revenue": 10 },
        { "sales.customers_country": "FR", "sales.revenue": 5 },
      ],
    };
    const [shown] = renderAnswer([table], "de-DE");
    expect(shown!.rows.map((r) => r[0])).toEqual(["Deutschland", "FR"]);
  });

  it("right-aligns amounts only: a part of time is named and reads as text", () => {
    const table: ChatPart = {
      id: "t",
      type: "table",
      columns: [
        { key: "sales.created_at.dayOfWeek", title: "Fecha del pedido (día de la semana)", type: "number", timePart: "dayOfWeek" },
        { key: "sales.count", title: "Pedidos", type: "number" },
      ],
      rows: [{ "sales.created_at.dayOfWeek": 1, "sales.count": 1874 }],
    };
    renderAnswer([table], "es-ES");
    const [day, count] = screen.getAllByRole("cell");
    expect(day!.textContent).toBe("lunes");
    expect(day!.className).not.toContain("is-number");
    expect(count!.className).toContain("is-number");
    const [dayHead, countHead] = screen.getAllByRole("columnheader");
    expect(dayHead!.className).not.toContain("is-number");
    expect(countHead!.className).toContain("is-number");
  });

  it("pairs a table with the query part before it", () => {
    const parts = [...toolParts(compareQuery, compareResult, 0), ...toolParts(calculationsQuery, calculationsResult, 1)];
    expect(queryPartOf(parts, parts[3]!)?.id).toBe("q1");
    expect(queryPartOf(parts, parts[1]!)?.id).toBe("q0");
    expect(queryPartOf(parts, parts[0]!)).toBeUndefined();
  });
});
