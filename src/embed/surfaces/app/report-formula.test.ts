import { describe, expect, it } from "vitest";
import {
  applyCompletion,
  checkFormulaText,
  completionsAt,
  fieldNameOf,
  nameProblemOf,
  putCalculatedField,
  removeCalculatedField,
  runnableCalculatedFieldsOf,
  usedCalculatedFieldsOf,
  withCalculatedMembers,
} from "./report-formula";
import { SALES } from "./report-formula-fixtures";

/** What completes the word at the formula's end (or at `caret`). */
const inserts = (text: string, caret = text.length, all = false) => completionsAt(text, caret, SALES, all)?.items.map((i) => i.insert) ?? null;

describe("checkFormulaText", () => {
  it("types a formula over measures as a measure and one over dimensions as a dimension", () => {
    expect(checkFormulaText("revenue / customer_count", SALES)).toEqual({ ok: true, kind: "measure", type: "number" });
    expect(checkFormulaText("count(where status = 'returned') / count", SALES)).toEqual({ ok: true, kind: "measure", type: "number" });
    expect(checkFormulaText("sales.amount * 1.2", SALES)).toEqual({ ok: true, kind: "dimension", type: "number" });
    expect(checkFormulaText("amount >= 50", SALES)).toEqual({ ok: true, kind: "dimension", type: "boolean" });
  });

  it("points at an unknown member, with the nearest name", () => {
    const check = checkFormulaText("revenue / custmer_count", SALES);
    expect(check).toMatchObject({ ok: false, kind: "unknown_member", position: 10, end: 23, word: "custmer_count", nearest: "customer_count" });
    // The checker's code and parameters, for the sentence in the app's language; the English words as the API gives them.
    expect(check).toMatchObject({ code: "unknownMember", params: { name: "custmer_count", suggestion: "customer_count" } });
    expect(check).toMatchObject({ detail: 'unknown member "custmer_count"; did you mean "customer_count"?' });
  });

  it("points at the end of a formula that ends too early, and at the token that does not fit", () => {
    expect(checkFormulaText("revenue / ", SALES)).toMatchObject({ ok: false, kind: "syntax", position: 10, end: 10 });
    expect(checkFormulaText("revenue 2", SALES)).toMatchObject({ ok: false, kind: "syntax", position: 8, end: 9 });
    expect(checkFormulaText("count(where status = 'x'", SALES)).toMatchObject({ ok: false, kind: "syntax", position: 24 });
  });

  it("names type and mixing problems where they are", () => {
    expect(checkFormulaText("revenue + status", SALES)).toMatchObject({
      ok: false,
      kind: "type",
      position: 10,
      end: 16,
      code: "arithmeticNeedsNumber",
      params: { operator: "+", foundType: "string" },
    });
    expect(checkFormulaText("revenue / amount", SALES)).toMatchObject({ ok: false, kind: "mixing" });
    expect(checkFormulaText("median(amount)", SALES)).toMatchObject({ ok: false, kind: "unknown_function", position: 0, word: "median" });
  });

  it("says a formula with nothing in it is empty", () => {
    expect(checkFormulaText("  ", SALES)).toMatchObject({ ok: false, kind: "empty", position: 0, code: "empty" });
  });
});

describe("completionsAt", () => {
  it("offers the members whose name or title starts with the word, then functions", () => {
    expect(inserts("revenue / cu")).toEqual(["customer_count"]);
    // Then the members that hold the word further in.
    expect(inserts("co")).toEqual(["count", "count(", "count_distinct(", "coalesce(", "customer_count"]);
    // "ord" starts the title "Orders" (count) and "Order Date" (created_at).
    expect(inserts("ord")).toEqual(["count", "created_at"]);
  });

  it("replaces the whole word around the caret and puts the caret after the completion", () => {
    const text = "revenue / cust + 1";
    const list = completionsAt(text, 14, SALES)!;
    expect(list).toMatchObject({ from: 10, to: 14 });
    expect(applyCompletion(text, list, list.items[0]!)).toEqual({ text: "revenue / customer_count + 1", caret: 24 });
    const middle = completionsAt("revenue / cuXX", 12, SALES)!;
    expect(middle).toMatchObject({ from: 10, to: 14 });
  });

  it("completes qualified names in the view's own name", () => {
    expect(inserts("sales.rev")).toEqual(["sales.revenue"]);
    expect(inserts("orders.rev")).toBeNull();
  });

  it("offers nothing inside text, after a number, or with no word unless every member is asked for", () => {
    expect(inserts("count(where status = 'co")).toBeNull();
    expect(inserts("count(where status = 'it''s co")).toBeNull();
    expect(inserts("count(where status = 'x') / co")).toContain("count");
    expect(inserts("2e")).toBeNull();
    expect(inserts("revenue / ")).toBeNull();
    expect(inserts("revenue / ", 10, true)).toEqual(["count", "revenue", "customer_count", "status", "amount", "created_at"]);
  });

  it("offers keywords from two letters, and nothing once a word is written out in full", () => {
    expect(inserts("count(wh")).toEqual(["where "]);
    expect(inserts("revenue")).toBeNull();
  });
});

describe("calculated fields in the draft's query", () => {
  const field = { name: "revenue_per_order", formula: "revenue / count", title: "Revenue per order" };

  it("adds a measure field among the measures and a dimension field among the breakouts", () => {
    const q = putCalculatedField({ measures: ["sales.count"] }, "sales", field, "measure");
    expect(q).toEqual({ measures: ["sales.count", "sales.revenue_per_order"], calculatedFields: [field] });
    const big = { name: "big", formula: "amount >= 50" };
    expect(putCalculatedField(q, "sales", big, "dimension")).toMatchObject({ dimensions: ["sales.big"], calculatedFields: [field, big] });
  });

  it("keeps an edited field's place, and moves a renamed one", () => {
    const q = putCalculatedField(
      { measures: ["sales.revenue_per_order", "sales.count"], calculatedFields: [field] },
      "sales",
      { ...field, formula: "revenue / customer_count" },
      "measure",
      field.name,
    );
    expect(q.measures).toEqual(["sales.revenue_per_order", "sales.count"]);
    expect(q.calculatedFields).toEqual([{ ...field, formula: "revenue / customer_count" }]);
    const renamed = putCalculatedField(q, "sales", { ...field, name: "rpo" }, "measure", field.name);
    expect(renamed.measures).toEqual(["sales.count", "sales.rpo"]);
    expect(renamed.calculatedFields?.map((f) => f.name)).toEqual(["rpo"]);
  });

  it("removes a field from every place the query names it", () => {
    const q = removeCalculatedField(
      {
        measures: ["sales.count", "sales.revenue_per_order"],
        calculatedFields: [field],
        filters: [
          { member: "sales.revenue_per_order", operator: "gt", values: [10] },
          { or: [{ member: "sales.revenue_per_order", operator: "lt", values: [1] }] },
        ],
        order: [["sales.revenue_per_order", "desc"]],
      },
      "sales",
      field.name,
    );
    expect(q).toEqual({ measures: ["sales.count"], filters: [], order: [] });
  });

  it("sends only the fields the query uses", () => {
    const q = { measures: ["sales.count"], calculatedFields: [field] };
    expect(usedCalculatedFieldsOf(q, "sales")).toEqual({ measures: ["sales.count"] });
    expect(usedCalculatedFieldsOf({ ...q, order: [["sales.revenue_per_order", "desc"]] as [string, "desc"][] }, "sales").calculatedFields).toEqual([field]);
  });

  it("lists fields as members of the view, by kind and title", () => {
    const view = withCalculatedMembers(SALES, [field, { name: "big", formula: "amount >= 50", title: "Big order" }]);
    expect(view.measures.at(-1)).toEqual({
      name: "sales.revenue_per_order",
      title: "Revenue per order",
      shortTitle: "Revenue per order",
      type: "number",
      measureType: "number",
    });
    expect(view.dimensions.at(-1)).toMatchObject({ name: "sales.big", type: "boolean" });
  });

  it("names a field from its title and refuses a name a member or another field has", () => {
    expect(fieldNameOf("Revenue per order")).toBe("revenue_per_order");
    expect(fieldNameOf("Ø Umsatz / Kunde")).toBe("umsatz_kunde");
    expect(fieldNameOf("Café share")).toBe("cafe_share");
    expect(fieldNameOf("2025 share")).toBe("f_2025_share");
    expect(fieldNameOf("売上", "field_2")).toBe("field_2");
    expect(nameProblemOf("revenue", SALES, [])).toBe("nameTaken");
    expect(nameProblemOf("rpo", SALES, [{ name: "rpo", formula: "count" }])).toBe("nameTaken");
    expect(nameProblemOf("rpo", SALES, [{ name: "rpo", formula: "count" }], "rpo")).toBeNull();
    expect(nameProblemOf("", SALES, [])).toBe("nameMissing");
  });
});

describe("runnableCalculatedFieldsOf", () => {
  it("leaves out a field whose formula does not check, with every use of it, and keeps the others", () => {
    const good = { name: "rpo", formula: "revenue / count" };
    const broken = { name: "old", formula: "revenue / gone_measure" };
    const q = runnableCalculatedFieldsOf(
      {
        measures: ["sales.count", "sales.rpo", "sales.old"],
        filters: [{ member: "sales.old", operator: "gt", values: [1] }],
        calculatedFields: [good, broken],
      },
      SALES,
    );
    expect(q).toEqual({ measures: ["sales.count", "sales.rpo"], filters: [], calculatedFields: [good] });
  });
});
