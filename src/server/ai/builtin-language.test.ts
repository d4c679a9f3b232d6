import { describe, expect, it } from "vitest";
import { canonicalize, normalize, splitCompounds } from "./builtin-language";

describe("splitCompounds", () => {
  it.each([
    ["wie hoch ist unser gesamtumsatz", new Set<string>(), "wie hoch ist unser gesamt umsatz"],
    ["umsatzentwicklung", new Set<string>(), "umsatz entwicklung"],
    ["kundensegment", new Set<string>(), "kunden segment"],
    ["bestellwert", new Set<string>(), "bestellwert"],
    ["mitarbeiter", new Set<string>(), "mitarbeiter"],
    // The model's own words split compounds too: a model with a "marge" member.
    ["produktmarge", new Set(["marge"]), "produkt marge"],
  ])("%s → %s", (text, known, expected) => expect(splitCompounds(text, known)).toBe(expected));
});

describe("canonicalize", () => {
  it.each([
    ["en", "orders above $500", "orders gt 500"],
    ["en", "revenue excluding cancelled orders", "revenue excluding cancelled orders"],
    ["en", "how many new customers signed up each month", "count new customers signed up each month"],
    ["en", "the busiest month", "the top month"],
    // Number words before comparisons; "per" as "by", and after a ranking as "in each" (not before a grain).
    ["en", "revenue from orders with more than three units", "revenue from orders with gt 3 units"],
    ["en", "revenue per category", "revenue by category"],
    ["en", "top selling product per category", "top units sold product by each category"],
    ["en", "orders per month", "orders per month"],
    ["de", "am schnellsten gewachsen", "top grew"],
    ["de", "bestellungen mit mehr als 3 stuck", "orders mit gt 3 units"],
    ["de", "umsatz ohne stornierte bestellungen", "revenue excluding cancelled orders"],
    ["de", "gesamt umsatz", "total revenue"],
    ["es", "pedidos con mas de 3 unidades", "orders con gt 3 units"],
    ["es", "ingresos sin los pedidos cancelados", "revenue excluding los orders cancelled"],
    ["es", "cuantos clientes nuevos se registraron cada mes", "count customers nuevos signed up each month"],
  ] as const)("%s: %s → %s", (lang, text, expected) => expect(canonicalize(normalize(text), lang)).toBe(expected));
});
