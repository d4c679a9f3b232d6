import { describe, expect, it } from "vitest";
import { WorkbookCalculatedFields } from "../../../schema/calculated-field";
import { loadDataModel } from "../data-model";
import { shopModelYaml } from "../test-support/shop-fixture";
import { checkWorkbookCalculatedFields } from "./workbook-fields";

const shop = loadDataModel([{ path: "shop.yml", content: shopModelYaml("main") }]);

describe("checkWorkbookCalculatedFields", () => {
  it("accepts fields whose formulas compile over their view", () => {
    expect(
      checkWorkbookCalculatedFields(shop, {
        "sales.returned_share": { formula: "count(where status = 'returned') / count", format: "percent" },
        "sales.with_tax": { formula: "amount * 1.2", title: "Amount with tax" },
        "orders.aov": { formula: "revenue / nullif(count, 0)" },
      }),
    ).toEqual([]);
  });

  it("names the key and the position of each problem", () => {
    expect(
      checkWorkbookCalculatedFields(shop, {
        "sales.bad": { formula: "revnue / count" },
        "nowhere.x": { formula: "count" },
        "sales.revenue": { formula: "count" },
        "sales.mixed": { formula: "revenue / amount" },
      }),
    ).toEqual([
      {
        path: ["calculatedFields", "sales.bad", "formula"],
        code: "unknown_member",
        message: 'unknown member "revnue"; did you mean "revenue"? (at character 1)',
      },
      { path: ["calculatedFields", "nowhere.x"], code: "unknown_member", message: '"nowhere" is not a view or cube of the model' },
      { path: ["calculatedFields", "sales.revenue"], code: "invalid_shape", message: expect.stringContaining("already a member") },
      { path: ["calculatedFields", "sales.mixed", "formula"], code: "wrong_member_kind", message: expect.stringContaining("(at character 11)") },
    ]);
  });

  it("takes keys <view>.<name> and at most 20 fields (the schema)", () => {
    expect(WorkbookCalculatedFields.safeParse({ "sales.x": { formula: "count" } }).success).toBe(true);
    expect(WorkbookCalculatedFields.safeParse({ x: { formula: "count" } }).success).toBe(false);
    expect(WorkbookCalculatedFields.safeParse({ "sales.x": { formula: "count", sql: "1" } }).success).toBe(false);
    const many = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`sales.f${i}`, { formula: "count" }]));
    expect(WorkbookCalculatedFields.safeParse(many).success).toBe(false);
  });
});
