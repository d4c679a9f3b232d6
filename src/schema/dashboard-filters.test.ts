import { describe, expect, it } from "vitest";
import {
  type DashboardFilter,
  isIanaTimeZone,
  parseEmbedUrlParameters,
  parseFilterParameter,
  serializeFilterParameter,
  serializeFilterParameters,
  toQueryFilter,
} from "./dashboard-filters";

describe("parseFilterParameter", () => {
  const valid: Array<[string, DashboardFilter | null]> = [
    ['f_orders.status={"value":"shipped"}', { member: "orders.status", operator: "equals", value: "shipped" }],
    ['f_orders.status={"value":["a","b"]}', { member: "orders.status", operator: "equals", value: ["a", "b"] }],
    ['f_orders.amount={"operator":"greater_than","value":100}', { member: "orders.amount", operator: "greater_than", value: 100 }],
    ['f_orders.amount={"operator":"between","value":[1,5]}', { member: "orders.amount", operator: "between", value: [1, 5] }],
    [
      'f_orders.created_at={"operator":"between","value":["2024-01-01","2024-12-31"]}',
      { member: "orders.created_at", operator: "between", value: ["2024-01-01", "2024-12-31"] },
    ],
    ['f_orders.note={"operator":"is_null"}', { member: "orders.note", operator: "is_null" }],
    ['f_orders.note={"operator":"is_not_empty","value":"ignored"}', { member: "orders.note", operator: "is_not_empty" }],
    ['f_orders.paid={"value":true}', { member: "orders.paid", operator: "equals", value: true }],
    ['f__v1._d2={"operator":"not_contains","value":["x"]}', { member: "_v1._d2", operator: "not_contains", value: ["x"] }],
    ['  f_orders.city={"operator":"starts_with","value":"Ber"}  ', { member: "orders.city", operator: "starts_with", value: "Ber" }],
    ["f_orders.status=%7B%22value%22%3A%22x%22%7D", { member: "orders.status", operator: "equals", value: "x" }],
    ["f_orders.status=null", null],
  ];
  it.each(valid)("parses %s", (input, expected) => {
    const result = parseFilterParameter(input);
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.filter).toEqual(expected);
  });

  const invalid: Array<[string, string]> = [
    ['orders.status={"value":1}', "malformed"],
    ["f_orders.status", "malformed"],
    ['g_orders.status={"value":1}', "malformed"],
    ['f_orders={"value":1}', "invalid-member"],
    ['f_orders.status.x={"value":1}', "invalid-member"],
    ['f_1orders.status={"value":1}', "invalid-member"],
    ['f_orders.sta-tus={"value":1}', "invalid-member"],
    ['f_.status={"value":1}', "invalid-member"],
    ["f_orders.status={value:1}", "invalid-json"],
    ["f_orders.status=[1,2]", "invalid-json"],
    ['f_orders.status="shipped"', "invalid-json"],
    ["f_orders.status=", "invalid-json"],
    ['f_orders.status={"operator":"like","value":"a"}', "unknown-operator"],
    ['f_orders.status={"operator":"__proto__","value":"a"}', "unknown-operator"],
    ['f_orders.status={"operator":"equals"}', "invalid-value"],
    ['f_orders.status={"value":{"a":1}}', "invalid-value"],
    ['f_orders.status={"value":[]}', "invalid-value"],
    ['f_orders.status={"value":[[1]]}', "invalid-value"],
    ['f_orders.status={"value":null}', "invalid-value"],
    ['f_orders.amount={"operator":"between","value":[1]}', "invalid-value"],
    ['f_orders.amount={"operator":"between","value":[1,"b"]}', "invalid-value"],
    ['f_orders.amount={"operator":"between","value":[true,false]}', "invalid-value"],
    ['f_orders.amount={"operator":"between","value":5}', "invalid-value"],
    [`f_orders.status={"value":"${"x".repeat(10_001)}"}`, "too-long"],
  ];
  it.each(invalid)("rejects %s as %s", (input, reason) => {
    const result = parseFilterParameter(input);
    expect(result).toMatchObject({ ok: false, reason });
    if (!result.ok) expect(result.message.length).toBeGreaterThan(0);
  });
});

describe("serializeFilterParameter", () => {
  const canonical = [
    'f_orders.status={"value":"shipped"}',
    'f_orders.status={"value":["a","b"]}',
    'f_orders.amount={"operator":"less_than_or_equal","value":9.5}',
    'f_orders.amount={"operator":"between","value":[1,5]}',
    'f_orders.note={"operator":"is_not_null"}',
    'f_orders.city={"operator":"not_ends_with","value":["x","y"]}',
  ];
  it.each(canonical)("round-trips %s", (text) => {
    const parsed = parseFilterParameter(text);
    if (!parsed.ok || parsed.filter === null) throw new Error("expected a filter");
    expect(serializeFilterParameter(parsed.filter)).toBe(text);
    const again = parseFilterParameter(serializeFilterParameter(parsed.filter));
    expect(again).toEqual(parsed);
  });

  it("lists a filter map sorted by member", () => {
    expect(
      serializeFilterParameters({
        "b.x": { member: "b.x", operator: "equals", value: 1 },
        "a.y": { member: "a.y", operator: "is_null" },
      }),
    ).toEqual(['f_a.y={"operator":"is_null"}', 'f_b.x={"value":1}']);
  });
});

describe("toQueryFilter", () => {
  const m = "orders.status";
  const cases: Array<[string, DashboardFilter, unknown]> = [
    ["equals one", { member: m, operator: "equals", value: "a" }, { member: m, operator: "equals", values: ["a"] }],
    ["equals any of", { member: m, operator: "equals", value: ["a", "b"] }, { member: m, operator: "in", values: ["a", "b"] }],
    ["not_equals one", { member: m, operator: "not_equals", value: "a" }, { member: m, operator: "notEquals", values: ["a"] }],
    ["not_equals any of", { member: m, operator: "not_equals", value: ["a", "b"] }, { member: m, operator: "notIn", values: ["a", "b"] }],
    ["greater_than", { member: m, operator: "greater_than", value: 3 }, { member: m, operator: "gt", values: [3] }],
    ["greater_than_or_equal", { member: m, operator: "greater_than_or_equal", value: 3 }, { member: m, operator: "gte", values: [3] }],
    ["less_than", { member: m, operator: "less_than", value: 3 }, { member: m, operator: "lt", values: [3] }],
    ["less_than_or_equal", { member: m, operator: "less_than_or_equal", value: 3 }, { member: m, operator: "lte", values: [3] }],
    ["contains", { member: m, operator: "contains", value: "x" }, { member: m, operator: "contains", values: ["x"] }],
    [
      "contains any of",
      { member: m, operator: "contains", value: ["x", "y"] },
      {
        or: [
          { member: m, operator: "contains", values: ["x"] },
          { member: m, operator: "contains", values: ["y"] },
        ],
      },
    ],
    [
      "not_contains any of",
      { member: m, operator: "not_contains", value: ["x", "y"] },
      {
        and: [
          { member: m, operator: "notContains", values: ["x"] },
          { member: m, operator: "notContains", values: ["y"] },
        ],
      },
    ],
    ["starts_with", { member: m, operator: "starts_with", value: "x" }, { member: m, operator: "startsWith", values: ["x"] }],
    ["not_starts_with", { member: m, operator: "not_starts_with", value: "x" }, { member: m, operator: "notStartsWith", values: ["x"] }],
    ["ends_with", { member: m, operator: "ends_with", value: "x" }, { member: m, operator: "endsWith", values: ["x"] }],
    ["not_ends_with", { member: m, operator: "not_ends_with", value: "x" }, { member: m, operator: "notEndsWith", values: ["x"] }],
    ["is_null", { member: m, operator: "is_null" }, { member: m, operator: "notSet", values: [] }],
    ["is_not_null", { member: m, operator: "is_not_null" }, { member: m, operator: "set", values: [] }],
    ["is_empty", { member: m, operator: "is_empty" }, { member: m, operator: "equals", values: [""] }],
    [
      "is_not_empty",
      { member: m, operator: "is_not_empty" },
      {
        and: [
          { member: m, operator: "notEquals", values: [""] },
          { member: m, operator: "set", values: [] },
        ],
      },
    ],
    [
      "between numbers",
      { member: m, operator: "between", value: [1, 9] },
      {
        and: [
          { member: m, operator: "gte", values: [1] },
          { member: m, operator: "lte", values: [9] },
        ],
      },
    ],
    [
      "between dates",
      { member: m, operator: "between", value: ["2024-01-01", "2024-03-31T23:59:59Z"] },
      { member: m, operator: "inDateRange", values: ["2024-01-01", "2024-03-31T23:59:59Z"] },
    ],
    [
      "between strings that are not dates",
      { member: m, operator: "between", value: ["a", "m"] },
      {
        and: [
          { member: m, operator: "gte", values: ["a"] },
          { member: m, operator: "lte", values: ["m"] },
        ],
      },
    ],
  ];
  it.each(cases)("maps %s", (_name, filter, expected) => {
    expect(toQueryFilter(filter)).toEqual(expected);
  });
});

describe("isIanaTimeZone", () => {
  const cases: Array<[string, boolean]> = [
    ["Europe/Berlin", true],
    ["America/Argentina/Buenos_Aires", true],
    ["UTC", true],
    ["Etc/GMT+2", true],
    ["+02:00", false],
    ["-0500", false],
    ["UTC+2", false],
    ["GMT-03:30", false],
    ["Mars/Olympus", false],
    ["", false],
    ["Europe/Berlin; x", false],
  ];
  it.each(cases)("judges %s as %s", (zone, expected) => {
    expect(isIanaTimeZone(zone)).toBe(expected);
  });
});

describe("parseEmbedUrlParameters", () => {
  it("reads filters, time grains, member switches, locale and time zone", () => {
    const params = new URLSearchParams();
    params.append("f_orders.status", '{"value":["shipped","paid"]}');
    params.append("tg_orders.created_at", "month");
    params.append("ms_orders.metric", "orders.revenue");
    params.append("locale", "de");
    params.append("timezone", "Europe/Berlin");
    params.append("session", "abc");
    const parsed = parseEmbedUrlParameters(params);
    expect(parsed.filters).toEqual({ "orders.status": { member: "orders.status", operator: "equals", value: ["shipped", "paid"] } });
    expect(parsed.timeGrains).toEqual({ "orders.created_at": "month" });
    expect(parsed.memberSwitches).toEqual({ "orders.metric": "orders.revenue" });
    expect(parsed.locale).toBe("de");
    expect(parsed.timezone).toBe("Europe/Berlin");
    expect(parsed.problems).toEqual([]);
  });

  it("decodes a filter from a real query string", () => {
    const url = new URL("https://svc.example/embed/dashboard/AbCdEfGh1234?f_orders.amount=" + encodeURIComponent('{"operator":"between","value":[10,20]}'));
    expect(parseEmbedUrlParameters(url.searchParams).filters["orders.amount"]).toEqual({
      member: "orders.amount",
      operator: "between",
      value: [10, 20],
    });
  });

  const allowExportCases: Array<[string | null, boolean]> = [
    ["true", true],
    ["TRUE", false],
    ["1", false],
    ["yes", false],
    ["", false],
    [null, false],
  ];
  it.each(allowExportCases)("turns allowExport=%s into %s", (value, expected) => {
    const params = new URLSearchParams(value === null ? "" : `allowExport=${value}`);
    expect(parseEmbedUrlParameters(params).allowExport).toBe(expected);
  });

  const switchCases: Array<[string, boolean]> = [
    ["false", false],
    ["FALSE", true],
    ["0", true],
    ["no", true],
    ["true", true],
  ];
  it.each(switchCases)("hides a switch only for the literal false (%s)", (value, expected) => {
    const parsed = parseEmbedUrlParameters(new URLSearchParams(`showDashboardHeader=${value}&showChatInput=${value}`));
    expect(parsed.show.showDashboardHeader).toBe(expected);
    expect(parsed.show.showChatInput).toBe(expected);
    expect(parsed.show.showDashboardTitle).toBe(true);
  });

  it("ignores a bare UTC offset and an unknown zone, and lists them as problems", () => {
    for (const zone of ["+02:00", "UTC+2", "Nowhere/Land"]) {
      const parsed = parseEmbedUrlParameters(new URLSearchParams({ timezone: zone }));
      expect(parsed.timezone).toBeNull();
      expect(parsed.problems).toEqual([expect.objectContaining({ parameter: "timezone", reason: "invalid-timezone" })]);
    }
  });

  it("skips bad filters, grains and switches but keeps the good ones", () => {
    const params = new URLSearchParams();
    params.append("f_orders.status", "{broken");
    params.append("f_orders", '{"value":1}');
    params.append("f_orders.city", '{"value":"Berlin"}');
    params.append("tg_orders.created_at", "fortnight");
    params.append("tg_orders.updated_at", "week");
    params.append("ms_bad", "x");
    params.append("ms_orders.metric", "   ");
    const parsed = parseEmbedUrlParameters(params);
    expect(Object.keys(parsed.filters)).toEqual(["orders.city"]);
    expect(parsed.timeGrains).toEqual({ "orders.updated_at": "week" });
    expect(parsed.memberSwitches).toEqual({});
    expect(parsed.problems.map((p) => [p.parameter, p.reason])).toEqual([
      ["f_orders.status", "invalid-json"],
      ["f_orders", "invalid-member"],
      ["tg_orders.created_at", "invalid-granularity"],
      ["ms_bad", "invalid-member"],
      ["ms_orders.metric", "invalid-switch"],
    ]);
  });

  it("lets a later duplicate filter override an earlier one", () => {
    const params = new URLSearchParams();
    params.append("f_orders.status", '{"value":"a"}');
    params.append("f_orders.status", '{"value":"b"}');
    expect(parseEmbedUrlParameters(params).filters["orders.status"]?.value).toBe("b");
  });
});
