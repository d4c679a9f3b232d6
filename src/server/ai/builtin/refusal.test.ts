import { describe, expect, it } from "vitest";
import type { Language } from "../builtin-language";
import { demoViews } from "./demo-views";
import { groupingsOf, refusalText } from "./refusal";
import type { Refusal } from "./understanding";

const views = demoViews();
const HOLDS_EN =
  "It holds Sales (Orders, Revenue, Units Sold, Average Order Value, Customers, Completed Orders, Completion Rate; by Status, Country, City, Category) and Customers (Customers; by Country, City).";

describe("groupingsOf", () => {
  it.each([
    ["sales", undefined, ["sales.status", "sales.customers_country", "sales.customers_city", "sales.products_category"]],
    ["sales", "customers", ["sales.customers_country", "sales.customers_city"]],
    ["sales", "products", ["sales.products_category"]],
    ["customer_base", undefined, ["customer_base.country", "customer_base.city"]],
  ])("%s, of %s", (view, entity, expected) => {
    expect(
      groupingsOf(
        views.find((v) => v.source.name === view)!,
        entity,
      ).map((d) => d.name),
    ).toEqual(expected);
  });
});

describe("refusalText", () => {
  it.each<[Language, Refusal, string]>([
    ["en", { kind: "write" }, "The chat only reads data: it cannot delete, change or add anything. Ask about the data instead, for example:"],
    ["de", { kind: "write" }, "Der Chat liest Daten nur: Er kann nichts löschen, ändern oder hinzufügen. Fragen Sie stattdessen nach den Daten, zum Beispiel:"],
    ["es", { kind: "write" }, "El chat solo lee datos: no puede borrar, cambiar ni añadir nada. Pregunte por los datos, por ejemplo:"],
    [
      "en",
      { kind: "unknown", term: "segment", view: "sales", grouping: { entity: "customers" } },
      "There is no segment in this data; you can group customers by country or city.",
    ],
    [
      "de",
      { kind: "unknown", term: "segment", view: "sales", grouping: { entity: "customers" } },
      "In diesen Daten gibt es nichts zu „segment“; Kunden lassen sich nach Land oder Stadt gruppieren.",
    ],
    [
      "es",
      { kind: "unknown", term: "segmento", view: "sales", grouping: { entity: "customers" } },
      "En estos datos no hay «segmento»; puede agrupar los clientes por país o ciudad.",
    ],
    [
      "en",
      { kind: "unknown", term: "region", view: "sales", grouping: {} },
      "There is no region in this data; you can group sales by status, country, city or category.",
    ],
    ["en", { kind: "unknown", term: "employees", view: "sales" }, `There are no employees in this data. ${HOLDS_EN}`],
    ["en", { kind: "unknown", term: "margin", view: "sales" }, `There is no margin in this data. ${HOLDS_EN}`],
  ])("%s %j", (lang, refusal, expected) => expect(refusalText(lang, refusal, views)).toBe(expected));
});
