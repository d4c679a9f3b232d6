import { describe, expect, it } from "vitest";
import type { Language } from "../builtin-language";
import { demoViews } from "./demo-views";
import { suggestionsFor } from "./suggestions";
import type { Understanding } from "./understanding";

const views = demoViews();
const revenueByCountry: Understanding = {
  language: "en",
  view: "sales",
  measures: ["sales.revenue"],
  dimensions: ["sales.customers_country"],
  filters: [],
  defaultMeasure: false,
  ignored: [],
};

describe("suggestionsFor", () => {
  it.each<[string, Language, Understanding | undefined, string[]]>([
    ["a first question, in English", "en", undefined, ["Revenue by City", "Orders by Country, top 5", "Orders over time"]],
    ["a first question, in German", "de", undefined, ["Revenue nach City", "Orders nach Country, Top 5", "Orders im Zeitverlauf"]],
    ["after revenue by country", "en", revenueByCountry, ["Revenue over time", "Revenue by Status", "Revenue by City, top 5"]],
  ])("%s", (_, lang, u, expected) => expect(suggestionsFor(views, lang, u)).toEqual(expected));
});
