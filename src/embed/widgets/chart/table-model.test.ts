import { describe, expect, it } from "vitest";
import { tableColumnsOf } from "./table-model";

describe("tableColumnsOf", () => {
  it("carries a part of time from the annotation, so its cells are labelled", () => {
    const rows = [{ "sales.created_at.dayOfWeek": 1, "sales.count": 4 }];
    const annotation = {
      measures: { "sales.count": { title: "Sales Count", shortTitle: "Count", type: "number" } },
      dimensions: {
        "sales.created_at.dayOfWeek": {
          title: "Sales Created At (day of week)",
          shortTitle: "Created At (day of week)",
          type: "number",
          timePart: "dayOfWeek" as const,
        },
      },
      timeDimensions: {},
    };
    const columns = tableColumnsOf(
      rows,
      annotation,
      { measures: ["sales.count"], timeDimensions: [{ dimension: "sales.created_at", part: "dayOfWeek" }] },
      null,
    );
    expect(columns.find((c) => c.key === "sales.created_at.dayOfWeek")).toMatchObject({ timePart: "dayOfWeek", isMeasure: false });
    expect(columns.find((c) => c.key === "sales.count")).not.toHaveProperty("timePart");
  });
});
