import { describe, expect, it } from "vitest";
import { startersOf } from "./starters";

const view = (titles: { revenue: string; count: string; country: string; city: string; status: string }) => [
  {
    kind: "view",
    measures: [
      { name: "sales.revenue", title: titles.revenue, format: "currency", measureType: "sum" },
      { name: "sales.count", title: titles.count, measureType: "count" },
    ],
    dimensions: [
      { name: "sales.customers_country", title: titles.country, type: "string" },
      { name: "sales.customers_city", title: titles.city, type: "string" },
      { name: "sales.status", title: titles.status, type: "string" },
      { name: "sales.created_at", title: "Order date", type: "time" },
    ],
  },
];

describe("the chat's first questions", () => {
  it("are asked in the viewer's language with the model's titles in it", () => {
    expect(startersOf(view({ revenue: "Revenue", count: "Orders", country: "Country", city: "City", status: "Status" }), "en-US")).toEqual([
      "Revenue by country last quarter",
      "Orders by city, top 5",
      "Orders by status over time",
    ]);
    // German nouns keep their capitals.
    expect(startersOf(view({ revenue: "Umsatz", count: "Bestellungen", country: "Land", city: "Stadt", status: "Status" }), "de-DE")).toEqual([
      "Umsatz nach Land im letzten Quartal",
      "Bestellungen nach Stadt, Top 5",
      "Bestellungen nach Status im Zeitverlauf",
    ]);
    expect(startersOf(view({ revenue: "Ingresos", count: "Pedidos", country: "País", city: "Ciudad", status: "Estado" }), "es-MX")).toEqual([
      "Ingresos por país en el último trimestre",
      "Pedidos por ciudad, top 5",
      "Pedidos por estado a lo largo del tiempo",
    ]);
  });

  it("are English in a language the builtin engine does not read", () => {
    expect(startersOf(view({ revenue: "Revenue", count: "Orders", country: "Country", city: "City", status: "Status" }), "ja-JP")[0]).toBe(
      "Revenue by country last quarter",
    );
  });
});
