import { unzipSync, strFromU8 } from "fflate";
import { describe, expect, it } from "vitest";
import { buildCsv } from "./csv";
import { exportColumnsOf } from "./export-columns";
import { calculationsQuery, calculationsResult, compareQuery, compareResult } from "./result-fixtures";
import { fileNameFor } from "./save-file";
import { buildXlsxBlob, buildXlsxSheet } from "./xlsx";

const annotation = {
  measures: { "sales.revenue": { title: "Sales Revenue", shortTitle: "Revenue", type: "number" } },
  dimensions: { "sales.city": { title: "City", shortTitle: "City", type: "string" } },
  timeDimensions: { "sales.created_at.month": { title: "Created", shortTitle: "Created", type: "time" } },
};
const rows = [
  { "sales.city": "New York", "sales.created_at.month": "2024-01-01T00:00:00.000", "sales.revenue": 1200.5 },
  { "sales.city": '=HYPERLINK("x")', "sales.created_at.month": "2024-02-01T00:00:00.000", "sales.revenue": null },
];
const query = { measures: ["sales.revenue"], dimensions: ["sales.city"], timeDimensions: [{ dimension: "sales.created_at", granularity: "month" as const }] };

describe("exportColumnsOf", () => {
  it("orders columns as dimensions, time dimensions, measures with annotation titles", () => {
    expect(exportColumnsOf(rows, annotation, query).map((c) => [c.key, c.title])).toEqual([
      ["sales.city", "City"],
      ["sales.created_at.month", "Created"],
      ["sales.revenue", "Revenue"],
    ]);
  });

  it("shows a period once: not the plain member the engine also answers it under, unless the query lists that member", () => {
    const granular = {
      ...annotation,
      timeDimensions: { "sales.created_at.month": { ...annotation.timeDimensions["sales.created_at.month"], granularity: "month" } },
    };
    const answered = rows.map((r) => ({ ...r, "sales.created_at": r["sales.created_at.month"] }));
    expect(exportColumnsOf(answered, granular, query).map((c) => c.key)).toEqual(["sales.city", "sales.created_at.month", "sales.revenue"]);
    const listed = { ...query, dimensions: ["sales.city", "sales.created_at"] };
    expect(exportColumnsOf(answered, granular, listed).map((c) => c.key)).toContain("sales.created_at");
  });
});

describe("exportColumnsOf on compare and calculations results", () => {
  it.each([
    [
      "compare",
      compareResult,
      compareQuery,
      [
        ["sales.products_category", "Products Category"],
        ["sales.revenue.baseline", "Revenue (Q1 2024)"],
        ["sales.revenue.current", "Revenue (Q1 2025)"],
        ["sales.revenue.change", "Revenue (change)"],
        ["sales.revenue.relativeChange", "Revenue (% change)"],
      ],
    ],
    [
      "calculations",
      calculationsResult,
      calculationsQuery,
      [
        ["sales.products_category", "Products Category"],
        ["sales.revenue", "Revenue"],
        ["sales.returned_share", "Returned share"],
        ["sales.revenue.percentOfTotal", "Revenue (% of total)"],
        ["sales.revenue.runningTotal", "Revenue (running total)"],
        ["sales.revenue.rank", "Revenue (rank)"],
      ],
    ],
  ])("titles every column of a %s result, and none the result lacks", (_kind, result, query, expected) => {
    expect(exportColumnsOf(result.data, result.annotation, query).map((c) => [c.key, c.title])).toEqual(expected);
    // An empty result still has its annotation: the same headers.
    expect(exportColumnsOf([], result.annotation, query).map((c) => c.key)).toEqual(expected.map(([key]) => key));
  });

  it("writes the titles as the CSV header and the XLSX header row", () => {
    const columns = exportColumnsOf(compareResult.data, compareResult.annotation, compareQuery);
    expect(buildCsv(columns, compareResult.data).split("\r\n")[0]).toBe(
      "Products Category,Revenue (Q1 2024),Revenue (Q1 2025),Revenue (change),Revenue (% change)",
    );
    const sheet = buildXlsxSheet(exportColumnsOf(calculationsResult.data, calculationsResult.annotation, calculationsQuery), calculationsResult.data);
    expect(sheet[0]!.map((cell) => (cell as { value: unknown }).value)).toEqual([
      "Products Category",
      "Revenue",
      "Returned share",
      "Revenue (% of total)",
      "Revenue (running total)",
      "Revenue (rank)",
    ]);
    expect(sheet[1]![3]).toEqual({ value: 0.75, type: Number });
  });
});

describe("buildCsv", () => {
  it("writes a header and one line per row, neutralising formulas", () => {
    const csv = buildCsv(exportColumnsOf(rows, annotation, query), rows);
    expect(csv.split("\r\n")).toEqual(["City,Created,Revenue", "New York,2024-01-01T00:00:00.000,1200.5", `"'=HYPERLINK(""x"")",2024-02-01T00:00:00.000,`]);
  });

  it("neutralises formula cells of every kind and formula column titles, and keeps numbers (bigints too) as numbers", () => {
    const hostile = ['=HYPERLINK("http://x","y")', "+1+A1", "-1+1", "@SUM(A1)", "\t=1", "\r=1"];
    const columns = [
      { key: "v", title: "Value" },
      { key: "n", title: '=HYPERLINK("http://x","title")' },
    ];
    const csv = buildCsv(
      columns,
      hostile.map((v, i) => ({ v, n: i === 0 ? -5 : BigInt(-i) })),
    );
    const [head, ...lines] = csv.split("\r\n");
    expect(head).toBe(`Value,"'=HYPERLINK(""http://x"",""title"")"`);
    expect(lines).toEqual([`"'=HYPERLINK(""http://x"",""y"")",-5`, `"'+1+A1",-1`, `"'-1+1",-2`, `"'@SUM(A1)",-3`, `"'\t=1",-4`, `"'\r=1",-5`]);
  });
});

describe("buildXlsxSheet", () => {
  it("keeps numbers as numbers and wall-clock times as dates", () => {
    const sheet = buildXlsxSheet(exportColumnsOf(rows, annotation, query), rows);
    expect(sheet).toHaveLength(3);
    expect(sheet[1]![2]).toEqual({ value: 1200.5, type: Number });
    expect((sheet[1]![1] as { value: Date }).value.toISOString()).toBe("2024-01-01T00:00:00.000Z");
    expect(sheet[2]![2]).toBeNull();
  });

  it("produces an xlsx workbook holding the values", async () => {
    const blob = await buildXlsxBlob(exportColumnsOf(rows, annotation, query), rows, "Revenue: by city");
    const files = unzipSync(new Uint8Array(await blob.arrayBuffer()));
    const strings = strFromU8(files["xl/sharedStrings.xml"] ?? new Uint8Array());
    const sheet = strFromU8(files["xl/worksheets/sheet1.xml"]!);
    expect(strings + sheet).toContain("New York");
    expect(sheet).toContain("1200.5");
  });
});

describe("fileNameFor", () => {
  it("makes a safe file name from a title", () => {
    expect(fileNameFor("Revenue über Zeit / 2024", "csv")).toBe("revenue-uber-zeit-2024.csv");
    expect(fileNameFor("", "png")).toBe("export.png");
  });
});
