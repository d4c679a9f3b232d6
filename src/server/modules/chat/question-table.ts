import { iso31661Alpha2ToNumeric } from "iso-3166";
import type { SemanticQuery, TimeDimension } from "../../../schema/semantic-query";
import type { PeriodComparison } from "../../../schema/dashboard";

/**
 * The question tables of the builtin engine against the demo model (chat.test.ts runs them):
 * QUESTIONS, each question's semantic query; FIGURES, the figures of answers against SQL written
 * by hand on each tenant's rows; REFUSALS, what is said in place of figures.
 */
const month: TimeDimension = { dimension: "sales.created_at", granularity: "month" };
/** Each row against the same measure one `unit` (or `amount` units) earlier: previous value, change, relative change. */
const against = (measure: string, unit: "month" | "quarter" | "year", amount = 1): PeriodComparison[] => [
  {
    measure,
    timeDimension: "sales.created_at",
    offset: { amount, unit },
    outputs: [`${measure}_prev_${amount === 1 ? unit : `${amount}_${unit}s`}`, `${measure}_change`, `${measure}_change_pct`],
  },
];
const thisYearToDate: TimeDimension = { dimension: "sales.created_at", granularity: "year", dateRange: ["2025-01-01", "2025-06-30"] };

export const QUESTIONS: [string, SemanticQuery | null, PeriodComparison[]?][] = [
  [
    "revenue by country last quarter",
    {
      measures: ["sales.revenue"],
      dimensions: ["sales.customers_country"],
      timeDimensions: [{ dimension: "sales.created_at", dateRange: ["2025-04-01", "2025-06-30"] }],
      order: [["sales.revenue", "desc"]],
    },
  ],
  ["top 5 cities by orders", { measures: ["sales.count"], dimensions: ["sales.customers_city"], order: [["sales.count", "desc"]], limit: 5 }],
  [
    "orders by status over time",
    {
      measures: ["sales.count"],
      dimensions: ["sales.status"],
      timeDimensions: [{ dimension: "sales.created_at", granularity: "month" }],
      order: [["sales.created_at", "asc"]],
    },
  ],
  ["total revenue", { measures: ["sales.revenue"] }],
  ["how many orders", { measures: ["sales.count"] }],
  ["revenue by category", { measures: ["sales.revenue"], dimensions: ["sales.products_category"], order: [["sales.revenue", "desc"]] }],
  [
    "average order value by category",
    { measures: ["sales.average_order_value"], dimensions: ["sales.products_category"], order: [["sales.average_order_value", "desc"]] },
  ],
  ["units sold by category", { measures: ["sales.units"], dimensions: ["sales.products_category"], order: [["sales.units", "desc"]] }],
  ["revenue in Germany", { measures: ["sales.revenue"], filters: [{ member: "sales.customers_country", operator: "equals", values: ["DE"] }] }],
  ["how many orders in Germany", { measures: ["sales.count"], filters: [{ member: "sales.customers_country", operator: "equals", values: ["DE"] }] }],
  [
    "revenue by city in France",
    {
      measures: ["sales.revenue"],
      dimensions: ["sales.customers_city"],
      filters: [{ member: "sales.customers_country", operator: "equals", values: ["FR"] }],
      order: [["sales.revenue", "desc"]],
    },
  ],
  ["orders by status", { measures: ["sales.count"], dimensions: ["sales.status"], order: [["sales.count", "desc"]] }],
  ["Bestellanzahl nach Status", { measures: ["sales.count"], dimensions: ["sales.status"], order: [["sales.count", "desc"]] }],
  [
    "busiest weekday",
    { measures: ["sales.count"], timeDimensions: [{ dimension: "sales.created_at", part: "dayOfWeek" }], order: [["sales.count", "desc"]], limit: 1 },
  ],
  [
    "¿Qué día de la semana tuvo más pedidos?",
    { measures: ["sales.count"], timeDimensions: [{ dimension: "sales.created_at", part: "dayOfWeek" }], order: [["sales.count", "desc"]], limit: 1 },
  ],
  [
    "Umsatz aus Bestellungen zwischen 50 und 150 €",
    { measures: ["sales.revenue"], filters: [{ member: "sales.amount", operator: "between", values: [50, 150] }] },
  ],
  [
    "categories with more than 450 units sold",
    {
      measures: ["sales.count"],
      dimensions: ["sales.products_category"],
      filters: [{ member: "sales.units", operator: "gt", values: [450] }],
      order: [["sales.count", "desc"]],
    },
  ],
  ["completion rate by country", { measures: ["sales.completion_rate"], dimensions: ["sales.customers_country"], order: [["sales.completion_rate", "desc"]] }],
  [
    "monthly revenue in 2024",
    {
      measures: ["sales.revenue"],
      timeDimensions: [{ dimension: "sales.created_at", granularity: "month", dateRange: ["2024-01-01", "2024-12-31"] }],
      order: [["sales.created_at", "asc"]],
    },
  ],
  [
    "revenue per quarter",
    { measures: ["sales.revenue"], timeDimensions: [{ dimension: "sales.created_at", granularity: "quarter" }], order: [["sales.created_at", "asc"]] },
  ],
  [
    "weekly orders last month",
    {
      measures: ["sales.count"],
      timeDimensions: [{ dimension: "sales.created_at", granularity: "week", dateRange: ["2025-06-01", "2025-06-30"] }],
      order: [["sales.created_at", "asc"]],
    },
  ],
  ["top 3 products by revenue", { measures: ["sales.revenue"], dimensions: ["sales.products_name"], order: [["sales.revenue", "desc"]], limit: 3 }],
  ["bottom 3 categories by revenue", { measures: ["sales.revenue"], dimensions: ["sales.products_category"], order: [["sales.revenue", "asc"]], limit: 3 }],
  [
    "compare Electronics and Books revenue",
    {
      measures: ["sales.revenue"],
      dimensions: ["sales.products_category"],
      filters: [{ member: "sales.products_category", operator: "in", values: ["Electronics", "Books"] }],
      order: [["sales.revenue", "desc"]],
    },
  ],
  [
    "Electronics vs Toys orders",
    {
      measures: ["sales.count"],
      dimensions: ["sales.products_category"],
      filters: [{ member: "sales.products_category", operator: "in", values: ["Electronics", "Toys"] }],
      order: [["sales.count", "desc"]],
    },
  ],
  ["revenue in March 2025", { measures: ["sales.revenue"], timeDimensions: [{ dimension: "sales.created_at", dateRange: ["2025-03-01", "2025-03-31"] }] }],
  ["orders in Q1 2025", { measures: ["sales.count"], timeDimensions: [{ dimension: "sales.created_at", dateRange: ["2025-01-01", "2025-03-31"] }] }],
  ["revenue this year", { measures: ["sales.revenue"], timeDimensions: [{ dimension: "sales.created_at", dateRange: ["2025-01-01", "2025-12-31"] }] }],
  [
    "revenue by month last year",
    {
      measures: ["sales.revenue"],
      timeDimensions: [{ dimension: "sales.created_at", granularity: "month", dateRange: ["2024-01-01", "2024-12-31"] }],
      order: [["sales.created_at", "asc"]],
    },
  ],
  ["top 10 customers by revenue", { measures: ["sales.revenue"], dimensions: ["sales.customers_name"], order: [["sales.revenue", "desc"]], limit: 10 }],
  ["customers by country", { measures: ["sales.customer_count"], dimensions: ["sales.customers_country"], order: [["sales.customer_count", "desc"]] }],
  [
    "completed orders by category",
    { measures: ["sales.completed_count"], dimensions: ["sales.products_category"], order: [["sales.completed_count", "desc"]] },
  ],
  [
    "revenue from Electronics in the US by month",
    {
      measures: ["sales.revenue"],
      timeDimensions: [{ dimension: "sales.created_at", granularity: "month" }],
      filters: [
        { member: "sales.products_category", operator: "equals", values: ["Electronics"] },
        { member: "sales.customers_country", operator: "equals", values: ["US"] },
      ],
      order: [["sales.created_at", "asc"]],
    },
  ],
  ["orders by country and status", { measures: ["sales.count"], dimensions: ["sales.customers_country", "sales.status"], order: [["sales.count", "desc"]] }],
  [
    "revenue in New York last quarter",
    {
      measures: ["sales.revenue"],
      timeDimensions: [{ dimension: "sales.created_at", dateRange: ["2025-04-01", "2025-06-30"] }],
      filters: [{ member: "sales.customers_city", operator: "equals", values: ["New York"] }],
    },
  ],
  [
    "Umsatz nach Land im letzten Quartal",
    {
      measures: ["sales.revenue"],
      dimensions: ["sales.customers_country"],
      timeDimensions: [{ dimension: "sales.created_at", dateRange: ["2025-04-01", "2025-06-30"] }],
      order: [["sales.revenue", "desc"]],
    },
  ],
  ["die 3 besten Städte nach Umsatz", { measures: ["sales.revenue"], dimensions: ["sales.customers_city"], order: [["sales.revenue", "desc"]], limit: 3 }],
  [
    "Bestellungen nach Status im Zeitverlauf",
    {
      measures: ["sales.count"],
      dimensions: ["sales.status"],
      timeDimensions: [{ dimension: "sales.created_at", granularity: "month" }],
      order: [["sales.created_at", "asc"]],
    },
  ],
  ["Umsatz in Deutschland", { measures: ["sales.revenue"], filters: [{ member: "sales.customers_country", operator: "equals", values: ["DE"] }] }],
  [
    "durchschnittlicher Bestellwert nach Kategorie",
    { measures: ["sales.average_order_value"], dimensions: ["sales.products_category"], order: [["sales.average_order_value", "desc"]] },
  ],
  [
    "Anzahl Bestellungen pro Monat im Jahr 2024",
    {
      measures: ["sales.count"],
      timeDimensions: [{ dimension: "sales.created_at", granularity: "month", dateRange: ["2024-01-01", "2024-12-31"] }],
      order: [["sales.created_at", "asc"]],
    },
  ],
  [
    "ingresos por país el último trimestre",
    {
      measures: ["sales.revenue"],
      dimensions: ["sales.customers_country"],
      timeDimensions: [{ dimension: "sales.created_at", dateRange: ["2025-04-01", "2025-06-30"] }],
      order: [["sales.revenue", "desc"]],
    },
  ],
  ["pedidos por estado", { measures: ["sales.count"], dimensions: ["sales.status"], order: [["sales.count", "desc"]] }],
  ["los 5 mejores ciudades por ingresos", { measures: ["sales.revenue"], dimensions: ["sales.customers_city"], order: [["sales.revenue", "desc"]], limit: 5 }],
  // The follow-up suggestions' ranking form, written with the model's titles, in each language.
  ["Revenue by City, top 5", { measures: ["sales.revenue"], dimensions: ["sales.customers_city"], order: [["sales.revenue", "desc"]], limit: 5 }],
  ["Revenue nach City, Top 5", { measures: ["sales.revenue"], dimensions: ["sales.customers_city"], order: [["sales.revenue", "desc"]], limit: 5 }],
  ["Revenue por City, los 5 mejores", { measures: ["sales.revenue"], dimensions: ["sales.customers_city"], order: [["sales.revenue", "desc"]], limit: 5 }],
  ["ingresos en España", { measures: ["sales.revenue"], filters: [{ member: "sales.customers_country", operator: "equals", values: ["ES"] }] }],
  [
    "ventas por categoría a lo largo del tiempo",
    {
      measures: ["sales.revenue"],
      dimensions: ["sales.products_category"],
      timeDimensions: [{ dimension: "sales.created_at", granularity: "month" }],
      order: [["sales.created_at", "asc"]],
    },
  ],
  [
    "ticket medio por país",
    { measures: ["sales.average_order_value"], dimensions: ["sales.customers_country"], order: [["sales.average_order_value", "desc"]] },
  ],
  // Growth and period over period (the data ends on Jun 30, 2025: "this year" is compared to date).
  [
    "revenue growth by month",
    { measures: ["sales.revenue"], timeDimensions: [month], order: [["sales.created_at", "asc"]] },
    against("sales.revenue", "month"),
  ],
  [
    "orders this year vs last year",
    { measures: ["sales.count"], timeDimensions: [thisYearToDate], order: [["sales.created_at", "asc"]] },
    against("sales.count", "year"),
  ],
  [
    "year over year revenue by month",
    { measures: ["sales.revenue"], timeDimensions: [month], order: [["sales.created_at", "asc"]] },
    against("sales.revenue", "year"),
  ],
  ...["revenue this year vs two years ago", "Umsatz dieses Jahr im Vergleich zu vor zwei Jahren", "ingresos de este año frente a hace dos años"].map(
    (q): [string, SemanticQuery | null, PeriodComparison[]?] => [
      q,
      { measures: ["sales.revenue"], timeDimensions: [thisYearToDate], order: [["sales.created_at", "asc"]] },
      against("sales.revenue", "year", 2),
    ],
  ),
  [
    "revenue by country this year vs last year",
    { measures: ["sales.revenue"], dimensions: ["sales.customers_country"], timeDimensions: [thisYearToDate], order: [["sales.created_at", "asc"]] },
    against("sales.revenue", "year"),
  ],
  [
    "how did orders change by quarter",
    { measures: ["sales.count"], timeDimensions: [{ dimension: "sales.created_at", granularity: "quarter" }], order: [["sales.created_at", "asc"]] },
    against("sales.count", "quarter"),
  ],
  [
    "Umsatzwachstum pro Monat",
    { measures: ["sales.revenue"], timeDimensions: [month], order: [["sales.created_at", "asc"]] },
    against("sales.revenue", "month"),
  ],
  [
    "Bestellungen dieses Jahr im Vergleich zum Vorjahr",
    { measures: ["sales.count"], timeDimensions: [thisYearToDate], order: [["sales.created_at", "asc"]] },
    against("sales.count", "year"),
  ],
  [
    "crecimiento de los ingresos por mes",
    { measures: ["sales.revenue"], timeDimensions: [month], order: [["sales.created_at", "asc"]] },
    against("sales.revenue", "month"),
  ],
  [
    "pedidos de este año frente al año pasado",
    { measures: ["sales.count"], timeDimensions: [thisYearToDate], order: [["sales.created_at", "asc"]] },
    against("sales.count", "year"),
  ],
  // Parts of time: by weekday, hour and month of the year, in calendar order.
  [
    "orders by quarter of the year",
    {
      measures: ["sales.count"],
      timeDimensions: [{ dimension: "sales.created_at", part: "quarterOfYear" }],
      order: [["sales.created_at.quarterOfYear", "asc"]],
    },
  ],
  [
    "Bestellungen nach Quartal des Jahres",
    {
      measures: ["sales.count"],
      timeDimensions: [{ dimension: "sales.created_at", part: "quarterOfYear" }],
      order: [["sales.created_at.quarterOfYear", "asc"]],
    },
  ],
  [
    "pedidos por trimestre del año",
    {
      measures: ["sales.count"],
      timeDimensions: [{ dimension: "sales.created_at", part: "quarterOfYear" }],
      order: [["sales.created_at.quarterOfYear", "asc"]],
    },
  ],
  [
    "Bestellungen nach Monat des Jahres",
    { measures: ["sales.count"], timeDimensions: [{ dimension: "sales.created_at", part: "monthOfYear" }], order: [["sales.created_at.monthOfYear", "asc"]] },
  ],
  [
    "revenue by day of the month",
    { measures: ["sales.revenue"], timeDimensions: [{ dimension: "sales.created_at", part: "dayOfMonth" }], order: [["sales.created_at.dayOfMonth", "asc"]] },
  ],
  [
    "Umsatz nach Tag des Monats",
    { measures: ["sales.revenue"], timeDimensions: [{ dimension: "sales.created_at", part: "dayOfMonth" }], order: [["sales.created_at.dayOfMonth", "asc"]] },
  ],
  [
    "orders by calendar week",
    { measures: ["sales.count"], timeDimensions: [{ dimension: "sales.created_at", part: "weekOfYear" }], order: [["sales.created_at.weekOfYear", "asc"]] },
  ],
  [
    "pedidos por semana del año",
    { measures: ["sales.count"], timeDimensions: [{ dimension: "sales.created_at", part: "weekOfYear" }], order: [["sales.created_at.weekOfYear", "asc"]] },
  ],
  [
    "orders by day of week",
    { measures: ["sales.count"], timeDimensions: [{ dimension: "sales.created_at", part: "dayOfWeek" }], order: [["sales.created_at.dayOfWeek", "asc"]] },
  ],
  [
    "Umsatz nach Wochentag",
    { measures: ["sales.revenue"], timeDimensions: [{ dimension: "sales.created_at", part: "dayOfWeek" }], order: [["sales.created_at.dayOfWeek", "asc"]] },
  ],
  [
    "pedidos por día de la semana",
    { measures: ["sales.count"], timeDimensions: [{ dimension: "sales.created_at", part: "dayOfWeek" }], order: [["sales.created_at.dayOfWeek", "asc"]] },
  ],
  [
    "revenue by hour of day",
    { measures: ["sales.revenue"], timeDimensions: [{ dimension: "sales.created_at", part: "hourOfDay" }], order: [["sales.created_at.hourOfDay", "asc"]] },
  ],
  [
    "top 1 weekday by orders last year",
    {
      measures: ["sales.count"],
      timeDimensions: [{ dimension: "sales.created_at", part: "dayOfWeek", dateRange: ["2024-01-01", "2024-12-31"] }],
      order: [["sales.count", "desc"]],
      limit: 1,
    },
  ],
  [
    "revenue by month of the year",
    { measures: ["sales.revenue"], timeDimensions: [{ dimension: "sales.created_at", part: "monthOfYear" }], order: [["sales.created_at.monthOfYear", "asc"]] },
  ],
  // Numeric conditions, exclusions, the busiest period, compounds and sign-ups (their figures: FIGURES below).
  ["orders above $500", { measures: ["sales.count"], filters: [{ member: "sales.amount", operator: "gt", values: [500] }] }],
  // "or": one dimension's values are `in`; comparisons and other filters an `or` group (of `and`s).
  [
    "orders above $500 or below $10",
    {
      measures: ["sales.count"],
      filters: [
        {
          or: [
            { member: "sales.amount", operator: "gt", values: [500] },
            { member: "sales.amount", operator: "lt", values: [10] },
          ],
        },
      ],
    },
  ],
  [
    "revenue in 2024 from orders in Germany or France with more than 3 units",
    {
      measures: ["sales.revenue"],
      timeDimensions: [{ dimension: "sales.created_at", dateRange: ["2024-01-01", "2024-12-31"] }],
      filters: [
        { member: "sales.customers_country", operator: "in", values: ["DE", "FR"] },
        { member: "sales.quantity", operator: "gt", values: [3] },
      ],
    },
  ],
  [
    "orders from Germany with more than 3 units, or orders above $500",
    {
      measures: ["sales.count"],
      filters: [
        {
          or: [
            {
              and: [
                { member: "sales.customers_country", operator: "equals", values: ["DE"] },
                { member: "sales.quantity", operator: "gt", values: [3] },
              ],
            },
            { member: "sales.amount", operator: "gt", values: [500] },
          ],
        },
      ],
    },
  ],
  ["Bestellungen mit mehr als 3 Stück", { measures: ["sales.count"], filters: [{ member: "sales.quantity", operator: "gt", values: [3] }] }],
  ["pedidos con más de 3 unidades", { measures: ["sales.count"], filters: [{ member: "sales.quantity", operator: "gt", values: [3] }] }],
  ["revenue from orders with more than 3 units", { measures: ["sales.revenue"], filters: [{ member: "sales.quantity", operator: "gt", values: [3] }] }],
  [
    "categories with revenue above 40000",
    {
      measures: ["sales.revenue"],
      dimensions: ["sales.products_category"],
      filters: [{ member: "sales.revenue", operator: "gt", values: [40000] }],
      order: [["sales.revenue", "desc"]],
    },
  ],
  [
    "revenue in 2024 excluding cancelled orders",
    {
      measures: ["sales.revenue"],
      timeDimensions: [{ dimension: "sales.created_at", dateRange: ["2024-01-01", "2024-12-31"] }],
      filters: [{ member: "sales.status", operator: "notEquals", values: ["cancelled"] }],
    },
  ],
  [
    "Umsatz 2024 ohne stornierte Bestellungen",
    {
      measures: ["sales.revenue"],
      timeDimensions: [{ dimension: "sales.created_at", dateRange: ["2024-01-01", "2024-12-31"] }],
      filters: [{ member: "sales.status", operator: "notEquals", values: ["cancelled"] }],
    },
  ],
  [
    "ingresos en 2024 sin los pedidos cancelados",
    {
      measures: ["sales.revenue"],
      timeDimensions: [{ dimension: "sales.created_at", dateRange: ["2024-01-01", "2024-12-31"] }],
      filters: [{ member: "sales.status", operator: "notEquals", values: ["cancelled"] }],
    },
  ],
  ["Wie hoch ist unser Gesamtumsatz?", { measures: ["sales.revenue"] }],
  [
    "busiest month in 2024",
    {
      measures: ["sales.count"],
      timeDimensions: [{ dimension: "sales.created_at", granularity: "month", dateRange: ["2024-01-01", "2024-12-31"] }],
      order: [["sales.count", "desc"]],
      limit: 1,
    },
  ],
  [
    "Welcher Monat hatte 2024 die meisten Bestellungen?",
    {
      measures: ["sales.count"],
      timeDimensions: [{ dimension: "sales.created_at", granularity: "month", dateRange: ["2024-01-01", "2024-12-31"] }],
      order: [["sales.count", "desc"]],
      limit: 1,
    },
  ],
  [
    "¿Cuál fue el mes con más pedidos en 2024?",
    {
      measures: ["sales.count"],
      timeDimensions: [{ dimension: "sales.created_at", granularity: "month", dateRange: ["2024-01-01", "2024-12-31"] }],
      order: [["sales.count", "desc"]],
      limit: 1,
    },
  ],
  [
    "How many customers signed up in 2024?",
    { measures: ["customer_base.count"], timeDimensions: [{ dimension: "customer_base.signed_up_at", dateRange: ["2024-01-01", "2024-12-31"] }] },
  ],
  [
    "Wie viele Kunden haben sich 2024 angemeldet?",
    { measures: ["customer_base.count"], timeDimensions: [{ dimension: "customer_base.signed_up_at", dateRange: ["2024-01-01", "2024-12-31"] }] },
  ],
  [
    "¿Cuántos clientes se registraron en 2024?",
    { measures: ["customer_base.count"], timeDimensions: [{ dimension: "customer_base.signed_up_at", dateRange: ["2024-01-01", "2024-12-31"] }] },
  ],
  [
    "How many new customers signed up each month?",
    {
      measures: ["customer_base.count"],
      timeDimensions: [{ dimension: "customer_base.signed_up_at", granularity: "month" }],
      order: [["customer_base.signed_up_at", "asc"]],
    },
  ],
  [
    "Wie viele neue Kunden haben sich pro Monat angemeldet?",
    {
      measures: ["customer_base.count"],
      timeDimensions: [{ dimension: "customer_base.signed_up_at", granularity: "month" }],
      order: [["customer_base.signed_up_at", "asc"]],
    },
  ],
  [
    "¿Cuántos clientes nuevos se registraron cada mes?",
    {
      measures: ["customer_base.count"],
      timeDimensions: [{ dimension: "customer_base.signed_up_at", granularity: "month" }],
      order: [["customer_base.signed_up_at", "asc"]],
    },
  ],
  // Two date ranges side by side, calculations over the rows, the top per group, between.
  ...[
    "Which product category grew fastest from Q1 2025 to Q2 2025?",
    "Welche Produktkategorie ist von Q1 2025 bis Q2 2025 am stärksten gewachsen?",
    "¿Qué categoría de producto creció más del T1 2025 al T2 2025?",
  ].map((q): [string, SemanticQuery] => [
    q,
    {
      measures: ["sales.count"],
      dimensions: ["sales.products_category"],
      compare: { dimension: "sales.created_at", baseline: ["2025-01-01", "2025-03-31"], current: ["2025-04-01", "2025-06-30"] },
      order: [["sales.count.relativeChange", "desc"]],
      limit: 1,
    },
  ]),
  ...[
    "compare revenue in Q1 2025 with Q1 2024 by category",
    "Vergleiche den Umsatz im Q1 2025 mit Q1 2024 nach Kategorie",
    "compara los ingresos del T1 2025 con el T1 2024 por categoría",
  ].map((q): [string, SemanticQuery] => [
    q,
    {
      measures: ["sales.revenue"],
      dimensions: ["sales.products_category"],
      compare: { dimension: "sales.created_at", baseline: ["2024-01-01", "2024-03-31"], current: ["2025-01-01", "2025-03-31"] },
    },
  ]),
  ...[
    "what share of revenue comes from each category",
    "Welchen Anteil am Umsatz hat jede Kategorie?",
    "¿Qué porcentaje de los ingresos aporta cada categoría?",
  ].map((q): [string, SemanticQuery] => [
    q,
    {
      measures: ["sales.revenue"],
      dimensions: ["sales.products_category"],
      calculations: [{ type: "percentOfTotal", measure: "sales.revenue" }],
      order: [["sales.revenue", "desc"]],
    },
  ]),
  ...["rank cities by revenue", "Rangliste der Städte nach Umsatz", "clasificación de ciudades por ingresos"].map((q): [string, SemanticQuery] => [
    q,
    {
      measures: ["sales.revenue"],
      dimensions: ["sales.customers_city"],
      calculations: [{ type: "rank", measure: "sales.revenue" }],
      order: [["sales.revenue", "desc"]],
    },
  ]),
  ...["cumulative revenue by month", "kumulierter Umsatz pro Monat", "ingresos acumulados por mes"].map((q): [string, SemanticQuery] => [
    q,
    {
      measures: ["sales.revenue"],
      timeDimensions: [month],
      calculations: [{ type: "runningTotal", measure: "sales.revenue" }],
      order: [["sales.created_at", "asc"]],
    },
  ]),
  ...["best-selling product in each category", "meistverkauftes Produkt in jeder Kategorie", "producto más vendido en cada categoría"].map(
    (q): [string, SemanticQuery] => [
      q,
      {
        measures: ["sales.units"],
        dimensions: ["sales.products_name", "sales.products_category"],
        groupLimit: { within: ["sales.products_category"], limit: 1, order: [["sales.units", "desc"]] },
        order: [
          ["sales.products_category", "asc"],
          ["sales.units", "desc"],
        ],
      },
    ],
  ),
  ...["orders between $100 and $500", "Bestellungen zwischen 100 und 500 €", "pedidos entre 100 y 500 dólares"].map((q): [string, SemanticQuery] => [
    q,
    { measures: ["sales.count"], filters: [{ member: "sales.amount", operator: "between", values: [100, 500] }] },
  ]),
  ["weather in Paris tomorrow", null],
  ["who is the CEO", null],
  ["average order value by customer segment", null],
  ["delete all orders", null],
  ["How many employees work at our company?", null],
  // Ratios the model has no measure for: calculated fields, never SQL.
  [
    "average revenue per customer",
    {
      measures: ["sales.revenue_per_customer_count", "sales.revenue", "sales.customer_count"],
      calculatedFields: [{ name: "revenue_per_customer_count", formula: "revenue / customer_count", title: "Revenue / Customers", format: "currency" }],
    },
  ],
  [
    "What share of our revenue comes from Electronics?",
    {
      measures: ["sales.revenue_share", "sales.revenue_of_rows"],
      calculatedFields: [
        {
          name: "revenue_share",
          formula: "revenue(where products_category = 'Electronics') / revenue",
          title: "Share of Revenue (Category = Electronics)",
          format: "percent",
        },
        { name: "revenue_of_rows", formula: "revenue(where products_category = 'Electronics')", title: "Revenue (Category = Electronics)", format: "currency" },
      ],
    },
  ],
  [
    "percentage of orders returned in 2024",
    {
      measures: ["sales.count_share", "sales.count_of_rows"],
      calculatedFields: [
        { name: "count_share", formula: "count(where status = 'returned') / count", title: "Share of Orders (Status = returned)", format: "percent" },
        { name: "count_of_rows", formula: "count(where status = 'returned')", title: "Orders (Status = returned)" },
      ],
      timeDimensions: [{ dimension: "sales.created_at", dateRange: ["2024-01-01", "2024-12-31"] }],
    },
  ],
  // A share "by" a dimension for values named of it: each value's share of the whole, not of the values named.
  ...[
    ["share of revenue by country for DE and FR", "Share of Revenue", "Revenue"],
    ["Umsatzanteil nach Land für DE und FR", "Anteil an Revenue", "Revenue"],
    ["porcentaje de ingresos por país para DE y FR", "Parte de Revenue", "Revenue"],
  ].map(([q, share, figure]): [string, SemanticQuery] => [
    q!,
    {
      measures: ["sales.revenue_share_de", "sales.revenue_of_de", "sales.revenue_share_fr", "sales.revenue_of_fr"],
      calculatedFields: ["DE", "FR"].flatMap((c) => [
        {
          name: `revenue_share_${c.toLowerCase()}`,
          formula: `revenue(where customers_country = '${c}') / revenue`,
          title: `${share} (Country = ${c})`,
          format: "percent" as const,
        },
        {
          name: `revenue_of_${c.toLowerCase()}`,
          formula: `revenue(where customers_country = '${c}')`,
          title: `${figure} (Country = ${c})`,
          format: "currency" as const,
        },
      ]),
    },
  ]),
  // An average of a sum by a grouping: per row of the view (an order), per group.
  ...[
    ["average revenue by category", "Revenue / Orders"],
    ["durchschnittlicher Umsatz nach Kategorie", "Revenue / Orders"],
    ["ingresos medios por categoría", "Revenue / Orders"],
  ].map(([q, title]): [string, SemanticQuery] => [
    q!,
    {
      measures: ["sales.revenue_per_count", "sales.revenue", "sales.count"],
      dimensions: ["sales.products_category"],
      order: [["sales.revenue_per_count", "desc"]],
      calculatedFields: [{ name: "revenue_per_count", formula: "revenue / count", title, format: "currency" }],
    },
  ]),
  // No average of a count: said, not answered as the count.
  ["average orders by category", null],
];

export type Tenant = "acme-corp" | "globex-inc";
const orders2024 = (t: Tenant) => `tenant = '${t}' AND created_at >= '2024-01-01' AND created_at < '2025-01-01'`;
const revenue2024NotCancelled = (t: Tenant) => `SELECT sum(amount)::DOUBLE AS "sales.revenue" FROM orders WHERE ${orders2024(t)} AND status <> 'cancelled'`;
const busiestMonth2024 = (t: Tenant) =>
  `SELECT strftime(date_trunc('month', created_at), '%Y-%m-%d') AS "sales.created_at.month", count(*) AS "sales.count"
   FROM orders WHERE ${orders2024(t)} GROUP BY 1 ORDER BY 2 DESC LIMIT 1`;
/** Revenue of 2024's orders from Germany or France (any of the two) with more than 3 units. */
const revenue2024DeOrFrOver3 = (t: Tenant) =>
  `SELECT sum(o.amount)::DOUBLE AS "sales.revenue" FROM orders o JOIN customers c ON c.customer_id = o.customer_id
   WHERE o.tenant = '${t}' AND c.country IN ('DE', 'FR') AND o.quantity > 3 AND o.created_at >= '2024-01-01' AND o.created_at < '2025-01-01'`;
/** Orders from Germany that have more than 3 units or are above $500: A and (B or C). */
const germanyAnd3UnitsOr500 = (t: Tenant) =>
  `SELECT count(*) AS "sales.count" FROM orders o JOIN customers c ON c.customer_id = o.customer_id
   WHERE o.tenant = '${t}' AND c.country = 'DE' AND (o.quantity > 3 OR o.amount > 500)`;
/** Orders from Germany with more than 3 units, or any order above $500: (A and B) or C. */
const germanyWith3UnitsOr500 = (t: Tenant) =>
  `SELECT count(*) AS "sales.count" FROM orders o LEFT JOIN customers c ON c.customer_id = o.customer_id
   WHERE o.tenant = '${t}' AND ((c.country = 'DE' AND o.quantity > 3) OR o.amount > 500)`;
/** One figure for a period: "customers signed up in 2024" is a total, not a series. */
const signUps2024 = (t: Tenant) =>
  `SELECT count(*) AS "customer_base.count" FROM customers WHERE tenant = '${t}' AND signed_up_at >= '2024-01-01' AND signed_up_at < '2025-01-01'`;
const signUpsByMonth = (t: Tenant) =>
  `SELECT strftime(date_trunc('month', signed_up_at), '%Y-%m-%d') AS "customer_base.signed_up_at.month", count(*) AS "customer_base.count"
   FROM customers WHERE tenant = '${t}' GROUP BY 1 ORDER BY 1`;

const countByCategory = (t: Tenant, from: string, to: string) =>
  `SELECT p.category AS c, count(*) AS n, sum(o.amount)::DOUBLE AS r FROM orders o JOIN products p ON p.product_id = o.product_id
   WHERE o.tenant = '${t}' AND o.created_at >= '${from}' AND o.created_at < '${to}' GROUP BY 1`;
const grewFastest = (t: Tenant) =>
  `WITH b AS (${countByCategory(t, "2025-01-01", "2025-04-01")}), k AS (${countByCategory(t, "2025-04-01", "2025-07-01")})
   SELECT k.c AS "sales.products_category", b.n AS "sales.count.baseline", k.n AS "sales.count.current", k.n - b.n AS "sales.count.change",
          (k.n - b.n)::DOUBLE / b.n AS "sales.count.relativeChange"
   FROM b JOIN k ON k.c = b.c ORDER BY 5 DESC LIMIT 1`;
const q1Against = (t: Tenant) =>
  `WITH b AS (${countByCategory(t, "2024-01-01", "2024-04-01")}), k AS (${countByCategory(t, "2025-01-01", "2025-04-01")})
   SELECT k.c AS "sales.products_category", b.r AS "sales.revenue.baseline", k.r AS "sales.revenue.current", k.r - b.r AS "sales.revenue.change",
          (k.r - b.r) / b.r AS "sales.revenue.relativeChange"
   FROM b JOIN k ON k.c = b.c ORDER BY 3 DESC`;
const shareByCategory = (t: Tenant) =>
  `SELECT p.category AS "sales.products_category", sum(o.amount)::DOUBLE AS "sales.revenue",
          sum(o.amount)::DOUBLE / sum(sum(o.amount)::DOUBLE) OVER () AS "sales.revenue.percentOfTotal"
   FROM orders o JOIN products p ON p.product_id = o.product_id WHERE o.tenant = '${t}' GROUP BY 1 ORDER BY 2 DESC`;
const rankedCities = (t: Tenant) =>
  `SELECT c.city AS "sales.customers_city", sum(o.amount)::DOUBLE AS "sales.revenue", rank() OVER (ORDER BY sum(o.amount) DESC) AS "sales.revenue.rank"
   FROM orders o JOIN customers c ON c.customer_id = o.customer_id WHERE o.tenant = '${t}' GROUP BY 1 ORDER BY 2 DESC`;
const cumulativeByMonth = (t: Tenant) =>
  `SELECT strftime(date_trunc('month', created_at), '%Y-%m-%d') AS "sales.created_at.month", sum(amount)::DOUBLE AS "sales.revenue",
          sum(sum(amount)::DOUBLE) OVER (ORDER BY date_trunc('month', created_at)) AS "sales.revenue.runningTotal"
   FROM orders WHERE tenant = '${t}' GROUP BY date_trunc('month', created_at) ORDER BY 1`;
const bestSelling = (t: Tenant) =>
  `SELECT p.name AS "sales.products_name", p.category AS "sales.products_category", sum(o.quantity) AS "sales.units"
   FROM orders o JOIN products p ON p.product_id = o.product_id WHERE o.tenant = '${t}' GROUP BY 1, 2
   QUALIFY row_number() OVER (PARTITION BY p.category ORDER BY sum(o.quantity) DESC, p.name) = 1 ORDER BY 2`;
/** The share of revenue from Electronics, and that revenue. */
const electronicsShare = (t: Tenant) =>
  `SELECT (sum(o.amount) FILTER (WHERE p.category = 'Electronics'))::DOUBLE / sum(o.amount)::DOUBLE AS "sales.revenue_share",
          (sum(o.amount) FILTER (WHERE p.category = 'Electronics'))::DOUBLE AS "sales.revenue_of_rows"
   FROM orders o JOIN products p ON p.product_id = o.product_id WHERE o.tenant = '${t}'`;
/** The share of 2024's orders that were returned, and how many. */
const returnedShare2024 = (t: Tenant) =>
  `SELECT (count(*) FILTER (WHERE status = 'returned'))::DOUBLE / count(*) AS "sales.count_share", count(*) FILTER (WHERE status = 'returned') AS "sales.count_of_rows"
   FROM orders WHERE ${orders2024(t)}`;
/** Revenue over the customers who ordered, with both figures. */
const revenuePerCustomer = (t: Tenant) =>
  `SELECT sum(amount)::DOUBLE / count(DISTINCT customer_id) AS "sales.revenue_per_customer_count", sum(amount)::DOUBLE AS "sales.revenue",
          count(DISTINCT customer_id) AS "sales.customer_count" FROM orders WHERE tenant = '${t}'`;
/** Germany's and France's shares of all the tenant's revenue (in a period: of all of that period's), each with its revenue. */
const sharesOfDeAndFr = (t: Tenant, where = "TRUE") =>
  `SELECT ${["DE", "FR"]
    .map(
      (c) => `(sum(o.amount) FILTER (WHERE c.country = '${c}'))::DOUBLE / sum(o.amount)::DOUBLE AS "sales.revenue_share_${c.toLowerCase()}",
              (sum(o.amount) FILTER (WHERE c.country = '${c}'))::DOUBLE AS "sales.revenue_of_${c.toLowerCase()}"`,
    )
    .join(", ")}
   FROM orders o JOIN customers c ON c.customer_id = o.customer_id WHERE o.tenant = '${t}' AND ${where}`;
/** Revenue over the orders of each category: the average revenue of an order, with both figures. */
const averageRevenueByCategory = (t: Tenant) =>
  `SELECT p.category AS "sales.products_category", sum(o.amount)::DOUBLE / count(*) AS "sales.revenue_per_count", sum(o.amount)::DOUBLE AS "sales.revenue",
          count(*) AS "sales.count"
   FROM orders o JOIN products p ON p.product_id = o.product_id WHERE o.tenant = '${t}' GROUP BY 1 ORDER BY 2 DESC`;
const between100And500 = (t: Tenant) => `SELECT count(*) AS "sales.count" FROM orders WHERE tenant = '${t}' AND amount BETWEEN 100 AND 500`;
/** The tenant's orders with their customers and products: SELECT …, the conditions, then the rest (GROUP BY, ORDER BY …). */
const sales = (t: Tenant, select: string, where: string[] = [], rest = "") =>
  `SELECT ${select} FROM orders o JOIN customers c ON c.customer_id = o.customer_id JOIN products p ON p.product_id = o.product_id
   WHERE ${[`o.tenant = '${t}'`, ...where].join(" AND ")} ${rest}`;
/** Orders placed from the first day up to, not including, the second. */
const during = (from: string, until: string) => `o.created_at >= '${from}' AND o.created_at < '${until}'`;
const REVENUE = `sum(o.amount)::DOUBLE AS "sales.revenue"`;
const COUNT = `count(*) AS "sales.count"`;
const UNITS = `sum(o.quantity) AS "sales.units"`;
const AOV = `sum(o.amount)::DOUBLE / count(*) AS "sales.average_order_value"`;
const CATEGORY = `p.category AS "sales.products_category"`;
const COUNTRY = `c.country AS "sales.customers_country"`;
const CITY = `c.city AS "sales.customers_city"`;
const STATUS = `o.status AS "sales.status"`;
const PRODUCT = `p.name AS "sales.products_name"`;
const CUSTOMER = `c.name AS "sales.customers_name"`;
const MONTH = `strftime(date_trunc('month', o.created_at), '%Y-%m-%d') AS "sales.created_at.month"`;
const QUARTER = `strftime(date_trunc('quarter', o.created_at), '%Y-%m-%d') AS "sales.created_at.quarter"`;
/** A part of time as the query API names its column: ISO weekday (1 Monday), hour and month of the year. */
const WEEKDAY = `isodow(o.created_at) AS "sales.created_at.dayOfWeek"`;
const HOUR = `hour(o.created_at) AS "sales.created_at.hourOfDay"`;
const MONTH_OF_YEAR = `month(o.created_at) AS "sales.created_at.monthOfYear"`;
const QUARTER_OF_YEAR = `quarter(o.created_at) AS "sales.created_at.quarterOfYear"`;
const DAY_OF_MONTH = `day(o.created_at) AS "sales.created_at.dayOfMonth"`;
const Y2024 = during("2024-01-01", "2025-01-01");
const Y2025 = during("2025-01-01", "2026-01-01");
const Q2_2025 = during("2025-04-01", "2025-07-01");
const JUNE_2025 = during("2025-06-01", "2025-07-01");

/** `compare` of a measure over two ranges ([from, until)), per value of a grouping ([column, key]) by the current figure, or in total. */
const compared = (t: Tenant, measure: "sales.revenue" | "sales.count", baseline: [string, string], current: [string, string], group?: [string, string]) => {
  const m = measure === "sales.revenue" ? "sum(o.amount)::DOUBLE" : "count(*)";
  const g = group ? `${group[0]} AS g, ` : "";
  const by = group ? "GROUP BY 1" : "";
  return `WITH b AS (${sales(t, `${g}${m} AS v`, [during(...baseline)], by)}), k AS (${sales(t, `${g}${m} AS v`, [during(...current)], by)})
   SELECT ${group ? `k.g AS "${group[1]}", ` : ""}b.v AS "${measure}.baseline", k.v AS "${measure}.current", k.v - b.v AS "${measure}.change",
          (k.v - b.v)::DOUBLE / b.v AS "${measure}.relativeChange"
   FROM b ${group ? "JOIN k ON k.g = b.g ORDER BY k.v DESC" : ", k"}`;
};
/** The group whose measure grew most, relatively, from one range to the next. */
const grewMost = (t: Tenant, measure: "sales.revenue" | "sales.count", baseline: [string, string], current: [string, string], group: [string, string]) =>
  `SELECT * FROM (${compared(t, measure, baseline, current, group)}) x ORDER BY "${measure}.relativeChange" DESC LIMIT 1`;
type Lang = "en" | "de" | "es";
/** The groupings' titles as an answer in each language names them (the demo dictionaries' for German and Spanish). */
const TITLES: Record<Lang, Record<"status" | "country" | "city" | "category", string>> = {
  en: { status: "Status", country: "Country", city: "City", category: "Category" },
  de: { status: "Status", country: "Land", city: "Stadt", category: "Kategorie" },
  es: { status: "Estado", country: "País", city: "Ciudad", category: "Categoría" },
};
/** The demo dictionaries' words for the values of status and category (docs/content-translation.md), German and Spanish. */
const VALUE_WORDS: Record<Lang, Record<string, string>> = {
  en: {},
  de: {
    completed: "abgeschlossen",
    shipped: "versandt",
    processing: "in Bearbeitung",
    cancelled: "storniert",
    returned: "zurückgesandt",
    Electronics: "Elektronik",
    Home: "Haushalt",
    Apparel: "Bekleidung",
    Sports: "Sport",
    Books: "Bücher",
    Toys: "Spielzeug",
  },
  es: {
    completed: "completado",
    shipped: "enviado",
    processing: "en proceso",
    cancelled: "cancelado",
    returned: "devuelto",
    Electronics: "Electrónica",
    Home: "Hogar",
    Apparel: "Ropa",
    Sports: "Deportes",
    Books: "Libros",
    Toys: "Juguetes",
  },
};
/** Every country code (ISO 3166-1), named in each language by the runtime's region names. */
const COUNTRY_CODES = Object.keys(iso31661Alpha2ToNumeric);
/** A grouping column's value as an answer's table names it (cities as they are). */
const labelled = (column: string, lang: Lang) => {
  const names = new Intl.DisplayNames([lang], { type: "region" });
  const pairs = column === "c.country" ? COUNTRY_CODES.map((c) => [c, names.of(c)!]) : column === "c.city" ? [] : Object.entries(VALUE_WORDS[lang]);
  if (pairs.length === 0) return column;
  return `CASE ${column} ${pairs.map(([v, l]) => `WHEN '${v}' THEN '${l!.replace(/'/g, "''")}'`).join(" ")} ELSE ${column} END`;
};
/** What moved a sum or a count from one range to the next ([from, until)): each value of each grouping, by the size of its change. */
const why = (t: Tenant, measure: "sum(o.amount)" | "count(*)", baseline: [string, string], current: [string, string], lang: Lang = "en") => {
  const groupings: [string, string][] = [
    [TITLES[lang].status, "o.status"],
    [TITLES[lang].country, "c.country"],
    [TITLES[lang].city, "c.city"],
    [TITLES[lang].category, "p.category"],
  ];
  const per = groupings
    .map(
      ([title, column], i) => `SELECT '${title}' AS dimension, ${i} AS pos, ${column} AS raw, ${labelled(column, lang)} AS value,
        coalesce(${measure} FILTER (WHERE ${during(...baseline)}), 0)::DOUBLE AS baseline,
        coalesce(${measure} FILTER (WHERE ${during(...current)}), 0)::DOUBLE AS current
      FROM orders o JOIN customers c ON c.customer_id = o.customer_id JOIN products p ON p.product_id = o.product_id
      WHERE o.tenant = '${t}' AND o.created_at >= '${baseline[0]}' AND o.created_at < '${current[1]}' GROUP BY 3, 4`,
    )
    .join(" UNION ALL ");
  return `WITH v AS (${per}), total AS (SELECT sum(current - baseline) / 4 AS change FROM v)
    SELECT dimension, value, baseline, current, current - baseline AS change, (current - baseline) / total.change AS share
    FROM v, total WHERE current <> baseline ORDER BY abs(current - baseline) DESC, pos, raw LIMIT 10`;
};
/**
 * What makes a sum or a count differ between two values of a column (`current` against
 * `baseline`): each value of the other groupings (country's entity, its cities, left out), by the
 * size of its difference; `where` narrows both sides (a period).
 */
const whyAgainst = (t: Tenant, measure: "sum(o.amount)" | "count(*)", column: string, current: string, baseline: string, where = "TRUE", lang: Lang = "en") => {
  const groupings: [string, string][] = [
    [TITLES[lang].status, "o.status"],
    [TITLES[lang].category, "p.category"],
  ];
  const per = groupings
    .map(
      ([title, col], i) => `SELECT '${title}' AS dimension, ${i} AS pos, ${col} AS raw, ${labelled(col, lang)} AS value,
        coalesce(${measure} FILTER (WHERE ${column} = '${baseline}'), 0)::DOUBLE AS baseline,
        coalesce(${measure} FILTER (WHERE ${column} = '${current}'), 0)::DOUBLE AS current
      FROM orders o JOIN customers c ON c.customer_id = o.customer_id JOIN products p ON p.product_id = o.product_id
      WHERE o.tenant = '${t}' AND ${column} IN ('${current}', '${baseline}') AND ${where} GROUP BY 3, 4`,
    )
    .join(" UNION ALL ");
  return `WITH v AS (${per}), total AS (SELECT sum(current - baseline) / 2 AS change FROM v)
    SELECT dimension, value, baseline, current, current - baseline AS change, (current - baseline) / total.change AS share
    FROM v, total WHERE current <> baseline ORDER BY abs(current - baseline) DESC, pos, raw LIMIT 10`;
};
/** Why revenue in Germany differs from France's. */
const whyGermanyAgainstFrance = (t: Tenant, lang: Lang = "en") => whyAgainst(t, "sum(o.amount)", "c.country", "DE", "FR", "TRUE", lang);
const JAN: [string, string] = ["2025-01-01", "2025-02-01"];
const FEB: [string, string] = ["2025-02-01", "2025-03-01"];
const MAR: [string, string] = ["2025-03-01", "2025-04-01"];
const APR: [string, string] = ["2025-04-01", "2025-05-01"];
const MAY: [string, string] = ["2025-05-01", "2025-06-01"];
const JUN: [string, string] = ["2025-06-01", "2025-07-01"];
/** What moved revenue from January to February 2025. */
const whyFebruary = (t: Tenant, lang: Lang = "en") => why(t, "sum(o.amount)", JAN, FEB, lang);

const BY_CATEGORY: [string, string] = ["p.category", "sales.products_category"];
const BY_COUNTRY: [string, string] = ["c.country", "sales.customers_country"];
const Q1_24: [string, string] = ["2024-01-01", "2024-04-01"];
const Q2_24: [string, string] = ["2024-04-01", "2024-07-01"];
const Q1_25: [string, string] = ["2025-01-01", "2025-04-01"];
const Q2_25: [string, string] = ["2025-04-01", "2025-07-01"];
/**
 * The figures of answers, against SQL written by hand on the demo data of each tenant (never the
 * query API): the answer's table holds exactly these rows, for an acme viewer and a globex viewer.
 */
export const FIGURES: [string, (t: Tenant) => string][] = [
  ["orders above $500", (t) => `SELECT count(*) AS "sales.count" FROM orders WHERE tenant = '${t}' AND amount > 500`],
  ["Bestellungen mit einem Bestellwert über 500 €", (t) => `SELECT count(*) AS "sales.count" FROM orders WHERE tenant = '${t}' AND amount > 500`],
  [
    "What were our sales in Q2?",
    (t) => `SELECT sum(amount)::DOUBLE AS "sales.revenue" FROM orders WHERE tenant = '${t}' AND created_at >= '2025-04-01' AND created_at < '2025-07-01'`,
  ],
  ["Bestellungen mit mehr als 3 Stück", (t) => `SELECT count(*) AS "sales.count" FROM orders WHERE tenant = '${t}' AND quantity > 3`],
  ["pedidos con más de 3 unidades", (t) => `SELECT count(*) AS "sales.count" FROM orders WHERE tenant = '${t}' AND quantity > 3`],
  ["revenue from orders with more than 3 units", (t) => `SELECT sum(amount)::DOUBLE AS "sales.revenue" FROM orders WHERE tenant = '${t}' AND quantity > 3`],
  [
    "categories with revenue above 40000",
    (t) => `SELECT p.category AS "sales.products_category", sum(o.amount)::DOUBLE AS "sales.revenue"
            FROM orders o JOIN products p ON p.product_id = o.product_id WHERE o.tenant = '${t}'
            GROUP BY 1 HAVING sum(o.amount) > 40000 ORDER BY 2 DESC`,
  ],
  ["revenue in 2024 excluding cancelled orders", revenue2024NotCancelled],
  ["Umsatz 2024 ohne stornierte Bestellungen", revenue2024NotCancelled],
  ["ingresos en 2024 sin los pedidos cancelados", revenue2024NotCancelled],
  ["Wie hoch ist unser Gesamtumsatz?", (t) => `SELECT sum(amount)::DOUBLE AS "sales.revenue" FROM orders WHERE tenant = '${t}'`],
  ["What is our total revenue?", (t) => `SELECT sum(amount)::DOUBLE AS "sales.revenue" FROM orders WHERE tenant = '${t}'`],
  ["¿Cuáles son nuestros ingresos totales?", (t) => `SELECT sum(amount)::DOUBLE AS "sales.revenue" FROM orders WHERE tenant = '${t}'`],
  ["What share of our revenue comes from Electronics?", electronicsShare],
  ["Welcher Anteil unseres Umsatzes kommt aus Elektronik?", electronicsShare],
  ["¿Qué porcentaje de nuestros ingresos proviene de Electronics?", electronicsShare],
  [
    "what share of revenue comes from Germany and France",
    (t) => `SELECT (sum(o.amount) FILTER (WHERE c.country IN ('DE', 'FR')))::DOUBLE / sum(o.amount)::DOUBLE AS "sales.revenue_share",
            (sum(o.amount) FILTER (WHERE c.country IN ('DE', 'FR')))::DOUBLE AS "sales.revenue_of_rows"
            FROM orders o JOIN customers c ON c.customer_id = o.customer_id WHERE o.tenant = '${t}'`,
  ],
  ["share of revenue by country for DE and FR", sharesOfDeAndFr],
  ["Umsatzanteil nach Land für DE und FR", sharesOfDeAndFr],
  ["Anteil am Umsatz nach Land für Deutschland und Frankreich", sharesOfDeAndFr],
  ["porcentaje de ingresos por país para DE y FR", sharesOfDeAndFr],
  ["share of revenue by country for Germany and France in 2024", (t) => sharesOfDeAndFr(t, "o.created_at >= '2024-01-01' AND o.created_at < '2025-01-01'")],
  ["average revenue by category", averageRevenueByCategory],
  ["durchschnittlicher Umsatz nach Kategorie", averageRevenueByCategory],
  ["ingresos medios por categoría", averageRevenueByCategory],
  ["ingreso promedio por categoría", averageRevenueByCategory],
  ["percentage of orders returned in 2024", returnedShare2024],
  ["Anteil der zurückgegebenen Bestellungen 2024", returnedShare2024],
  ["porcentaje de pedidos devueltos en 2024", returnedShare2024],
  [
    "what percentage of orders are above $500",
    (
      t,
    ) => `SELECT (count(*) FILTER (WHERE amount > 500))::DOUBLE / count(*) AS "sales.count_share", count(*) FILTER (WHERE amount > 500) AS "sales.count_of_rows"
            FROM orders WHERE tenant = '${t}'`,
  ],
  ["average revenue per customer", revenuePerCustomer],
  ["durchschnittlicher Umsatz pro Kunde", revenuePerCustomer],
  ["Durchschnittsumsatz pro Kunde", revenuePerCustomer],
  ["ingresos medios por cliente", revenuePerCustomer],
  ["ingreso promedio por cliente", revenuePerCustomer],
  [
    "average units per order",
    (t) =>
      `SELECT sum(quantity)::DOUBLE / count(*) AS "sales.units_per_count", sum(quantity) AS "sales.units", count(*) AS "sales.count" FROM orders WHERE tenant = '${t}'`,
  ],
  ["el mes más ocupado de 2024", busiestMonth2024],
  ["¿Qué categoría de producto creció más rápido del T1 2025 al T2 2025?", grewFastest],
  ["busiest month in 2024", busiestMonth2024],
  ["Welcher Monat hatte 2024 die meisten Bestellungen?", busiestMonth2024],
  ["¿Cuál fue el mes con más pedidos en 2024?", busiestMonth2024],
  ["How many new customers signed up each month?", signUpsByMonth],
  ["How many customers signed up in 2024?", signUps2024],
  ["Wie viele Kunden haben sich 2024 angemeldet?", signUps2024],
  ["¿Cuántos clientes se registraron en 2024?", signUps2024],
  ["Wie viele neue Kunden haben sich pro Monat angemeldet?", signUpsByMonth],
  ["¿Cuántos clientes nuevos se registraron cada mes?", signUpsByMonth],
  // Filters joined by "or": values of one dimension, either comparison, "A and (B or C)", "(A and B) or C".
  ["revenue in 2024 from orders in Germany or France with more than 3 units", revenue2024DeOrFrOver3],
  ["Umsatz 2024 aus Deutschland oder Frankreich mit mehr als 3 Stück", revenue2024DeOrFrOver3],
  ["ingresos de 2024 de pedidos en Alemania o Francia con más de 3 unidades", revenue2024DeOrFrOver3],
  ["orders above $500 or below $10", (t) => `SELECT count(*) AS "sales.count" FROM orders WHERE tenant = '${t}' AND (amount > 500 OR amount < 10)`],
  ["Bestellungen über 500 $ oder unter 10 $", (t) => `SELECT count(*) AS "sales.count" FROM orders WHERE tenant = '${t}' AND (amount > 500 OR amount < 10)`],
  ["pedidos de más de 500 $ o menos de 10 $", (t) => `SELECT count(*) AS "sales.count" FROM orders WHERE tenant = '${t}' AND (amount > 500 OR amount < 10)`],
  ["orders in Germany with more than 3 units or above $500", germanyAnd3UnitsOr500],
  ["orders from Germany with more than 3 units, or orders above $500", germanyWith3UnitsOr500],
  ["Bestellungen aus Deutschland mit mehr als 3 Stück oder Bestellungen über 500 €", germanyWith3UnitsOr500],
  ["pedidos de Alemania con más de 3 unidades o pedidos de más de 500 dólares", germanyWith3UnitsOr500],
  [
    "categories with revenue above 40000 or below 20000",
    (t) => `SELECT p.category AS "sales.products_category", sum(o.amount)::DOUBLE AS "sales.revenue"
            FROM orders o JOIN products p ON p.product_id = o.product_id WHERE o.tenant = '${t}'
            GROUP BY 1 HAVING sum(o.amount) > 40000 OR sum(o.amount) < 20000 ORDER BY 2 DESC`,
  ],
  ["Wie viele neue Kunden haben sich jeden Monat angemeldet?", signUpsByMonth],
  ["Neukunden pro Monat", signUpsByMonth],
  ["nuevos clientes cada mes", signUpsByMonth],
  ["customers by sign-up month", signUpsByMonth],
  [
    "new customers per month in 2024",
    (t) => `SELECT strftime(date_trunc('month', signed_up_at), '%Y-%m-%d') AS "customer_base.signed_up_at.month", count(*) AS "customer_base.count"
            FROM customers WHERE tenant = '${t}' AND signed_up_at >= '2024-01-01' AND signed_up_at < '2025-01-01' GROUP BY 1 ORDER BY 1`,
  ],
  ["new customers in Germany", (t) => `SELECT count(*) AS "customer_base.count" FROM customers WHERE tenant = '${t}' AND country = 'DE'`],
  ["¿Cuántos clientes nuevos hay en Alemania?", (t) => `SELECT count(*) AS "customer_base.count" FROM customers WHERE tenant = '${t}' AND country = 'DE'`],
  ["Which product category grew fastest from Q1 2025 to Q2 2025?", grewFastest],
  ["Welche Produktkategorie ist von Q1 2025 bis Q2 2025 am stärksten gewachsen?", grewFastest],
  ["¿Qué categoría de producto creció más del T1 2025 al T2 2025?", grewFastest],
  ["compare revenue in Q1 2025 with Q1 2024 by category", q1Against],
  ["Vergleiche den Umsatz im Q1 2025 mit Q1 2024 nach Kategorie", q1Against],
  ["compara los ingresos del T1 2025 con el T1 2024 por categoría", q1Against],
  ["what share of revenue comes from each category", shareByCategory],
  ["Welchen Anteil am Umsatz hat jede Kategorie?", shareByCategory],
  ["¿Qué porcentaje de los ingresos aporta cada categoría?", shareByCategory],
  ["rank cities by revenue", rankedCities],
  ["Rangliste der Städte nach Umsatz", rankedCities],
  ["clasificación de ciudades por ingresos", rankedCities],
  ["cumulative revenue by month", cumulativeByMonth],
  ["kumulierter Umsatz pro Monat", cumulativeByMonth],
  ["ingresos acumulados por mes", cumulativeByMonth],
  ["best-selling product in each category", bestSelling],
  ["meistverkauftes Produkt in jeder Kategorie", bestSelling],
  ["producto más vendido en cada categoría", bestSelling],
  ["orders between $100 and $500", between100And500],
  ["Bestellungen zwischen 100 und 500 €", between100And500],
  ["pedidos entre 100 y 500 dólares", between100And500],
  ["why did revenue fall in February 2025?", (t) => whyFebruary(t)],
  ["Warum ist der Umsatz im Februar 2025 gesunken?", (t) => whyFebruary(t, "de")],
  ["¿Por qué bajaron los ingresos en febrero de 2025?", (t) => whyFebruary(t, "es")],
  // One value against another ("explain" between two segments): what makes the difference.
  ["why is revenue in Germany lower than in France?", (t) => whyGermanyAgainstFrance(t)],
  ["Warum ist der Umsatz in Deutschland niedriger als in Frankreich?", (t) => whyGermanyAgainstFrance(t, "de")],
  ["¿Por qué los ingresos en Alemania son más bajos que en Francia?", (t) => whyGermanyAgainstFrance(t, "es")],
  [
    "why are there fewer orders in Spain than in the UK in 2024?",
    (t) => whyAgainst(t, "count(*)", "c.country", "ES", "GB", "o.created_at >= '2024-01-01' AND o.created_at < '2025-01-01'"),
  ], // Parts of time: weekday, hour, month and quarter of the year, in calendar order.
  ["orders by day of week", (t) => sales(t, `${WEEKDAY}, ${COUNT}`, [], "GROUP BY 1 ORDER BY 1")],
  ["busiest weekday", (t) => sales(t, `${WEEKDAY}, ${COUNT}`, [], "GROUP BY 1 ORDER BY 2 DESC LIMIT 1")],
  ["¿Qué día de la semana tiene más pedidos?", (t) => sales(t, `${WEEKDAY}, ${COUNT}`, [], "GROUP BY 1 ORDER BY 2 DESC LIMIT 1")],
  // "per" as "by", and after a ranking as "in each"; number words in comparisons; "am schnellsten".
  ["revenue per category", (t) => sales(t, `${CATEGORY}, ${REVENUE}`, [], "GROUP BY 1 ORDER BY 2 DESC")],
  ["top selling product per category", bestSelling],
  [
    "top 3 customers by revenue per country",
    (t) =>
      sales(
        t,
        `${CUSTOMER}, ${COUNTRY}, ${REVENUE}`,
        [],
        "GROUP BY 1, 2 QUALIFY row_number() OVER (PARTITION BY c.country ORDER BY sum(o.amount) DESC, c.name) <= 3 ORDER BY 2, 3 DESC",
      ),
  ],
  ["revenue from orders with more than three units", (t) => sales(t, REVENUE, ["o.quantity > 3"])],
  ["Welche Produktkategorie ist von Q1 2025 bis Q2 2025 am schnellsten gewachsen?", grewFastest],
  // "between … and …" after words of growth: two periods side by side, not one span.
  ["¿Qué categoría de producto creció más rápido entre el T1 2025 y el T2 2025?", grewFastest],
  ["Wie viel Umsatz kam aus Bestellungen mit mehr als 3 Stück?", (t) => sales(t, REVENUE, ["o.quantity > 3"])],
  ["Anteil zurückgegebener Bestellungen im Jahr 2024", returnedShare2024],
  ["Welcher Wochentag war am geschäftigsten?", (t) => sales(t, `${WEEKDAY}, ${COUNT}`, [], "GROUP BY 1 ORDER BY 2 DESC LIMIT 1")],
  ["orders by quarter of the year", (t) => sales(t, `${QUARTER_OF_YEAR}, ${COUNT}`, [], "GROUP BY 1 ORDER BY 1")],
  ["Bestellungen nach Monat des Jahres", (t) => sales(t, `${MONTH_OF_YEAR}, ${COUNT}`, [], "GROUP BY 1 ORDER BY 1")],
  ["ingresos por día del mes", (t) => sales(t, `${DAY_OF_MONTH}, ${REVENUE}`, [], "GROUP BY 1 ORDER BY 1")],
  ["Umsatz nach Wochentag", (t) => sales(t, `${WEEKDAY}, ${REVENUE}`, [], "GROUP BY 1 ORDER BY 1")],
  ["pedidos por día de la semana", (t) => sales(t, `${WEEKDAY}, ${COUNT}`, [], "GROUP BY 1 ORDER BY 1")],
  ["average order value by weekday", (t) => sales(t, `${WEEKDAY}, ${AOV}`, [], "GROUP BY 1 ORDER BY 1")],
  ["Bestellungen nach Wochentag im Jahr 2024", (t) => sales(t, `${WEEKDAY}, ${COUNT}`, [Y2024], "GROUP BY 1 ORDER BY 1")],
  ["ingresos por día de la semana en 2024", (t) => sales(t, `${WEEKDAY}, ${REVENUE}`, [Y2024], "GROUP BY 1 ORDER BY 1")],
  ["top 1 weekday by orders last year", (t) => sales(t, `${WEEKDAY}, ${COUNT}`, [Y2024], "GROUP BY 1 ORDER BY 2 DESC LIMIT 1")],
  ["revenue by hour of day", (t) => sales(t, `${HOUR}, ${REVENUE}`, [], "GROUP BY 1 ORDER BY 1")],
  ["Bestellungen nach Uhrzeit", (t) => sales(t, `${HOUR}, ${COUNT}`, [], "GROUP BY 1 ORDER BY 1")],
  ["ingresos por hora del día", (t) => sales(t, `${HOUR}, ${REVENUE}`, [], "GROUP BY 1 ORDER BY 1")],
  ["units sold by time of day", (t) => sales(t, `${HOUR}, ${UNITS}`, [], "GROUP BY 1 ORDER BY 1")],
  ["orders by day of week in Germany", (t) => sales(t, `${WEEKDAY}, ${COUNT}`, ["c.country = 'DE'"], "GROUP BY 1 ORDER BY 1")],
  ["Umsatz nach Wochentag im letzten Quartal", (t) => sales(t, `${WEEKDAY}, ${REVENUE}`, [Q2_2025], "GROUP BY 1 ORDER BY 1")],
  ["pedidos por hora del día en 2025", (t) => sales(t, `${HOUR}, ${COUNT}`, [Y2025], "GROUP BY 1 ORDER BY 1")],
  ["revenue by month of the year", (t) => sales(t, `${MONTH_OF_YEAR}, ${REVENUE}`, [], "GROUP BY 1 ORDER BY 1")],
  ["pedidos por mes del año", (t) => sales(t, `${MONTH_OF_YEAR}, ${COUNT}`, [], "GROUP BY 1 ORDER BY 1")],
  // Two date ranges side by side, and the group that grew fastest.
  ["compare orders in Q1 2025 with Q1 2024 by category", (t) => compared(t, "sales.count", Q1_24, Q1_25, BY_CATEGORY)],
  ["compare revenue in Q2 2025 with Q2 2024", (t) => compared(t, "sales.revenue", Q2_24, Q2_25)],
  ["Vergleiche den Umsatz im Q2 2025 mit Q2 2024 nach Kategorie", (t) => compared(t, "sales.revenue", Q2_24, Q2_25, BY_CATEGORY)],
  ["compara los ingresos del T2 2025 con el T2 2024 por categoría", (t) => compared(t, "sales.revenue", Q2_24, Q2_25, BY_CATEGORY)],
  ["Vergleiche den Umsatz im Q2 2025 mit Q1 2025", (t) => compared(t, "sales.revenue", Q1_25, Q2_25)],
  ["compara los ingresos del T2 2025 con el T1 2025", (t) => compared(t, "sales.revenue", Q1_25, Q2_25)],
  ["Which category grew fastest from Q2 2024 to Q2 2025?", (t) => grewMost(t, "sales.count", Q2_24, Q2_25, BY_CATEGORY)],
  ["Welche Kategorie ist von Q2 2024 bis Q2 2025 am stärksten gewachsen?", (t) => grewMost(t, "sales.count", Q2_24, Q2_25, BY_CATEGORY)],
  ["¿Qué categoría creció más del T2 2024 al T2 2025?", (t) => grewMost(t, "sales.count", Q2_24, Q2_25, BY_CATEGORY)],
  ["Which category's revenue grew fastest from Q1 2025 to Q2 2025?", (t) => grewMost(t, "sales.revenue", Q1_25, Q2_25, BY_CATEGORY)],
  ["Which country grew fastest from Q1 2024 to Q1 2025?", (t) => grewMost(t, "sales.count", Q1_24, Q1_25, BY_COUNTRY)],
  // Share of the total.
  [
    "what share of orders comes from each status",
    (t) => sales(t, `${STATUS}, ${COUNT}, count(*)::DOUBLE / sum(count(*)) OVER () AS "sales.count.percentOfTotal"`, [], "GROUP BY 1 ORDER BY 2 DESC"),
  ],
  [
    "Welchen Anteil an den Bestellungen hat jeder Status?",
    (t) => sales(t, `${STATUS}, ${COUNT}, count(*)::DOUBLE / sum(count(*)) OVER () AS "sales.count.percentOfTotal"`, [], "GROUP BY 1 ORDER BY 2 DESC"),
  ],
  [
    "¿Qué porcentaje de los pedidos tiene cada estado?",
    (t) => sales(t, `${STATUS}, ${COUNT}, count(*)::DOUBLE / sum(count(*)) OVER () AS "sales.count.percentOfTotal"`, [], "GROUP BY 1 ORDER BY 2 DESC"),
  ],
  [
    "what share of units sold comes from each category",
    (t) =>
      sales(
        t,
        `${CATEGORY}, ${UNITS}, sum(o.quantity)::DOUBLE / sum(sum(o.quantity)) OVER () AS "sales.units.percentOfTotal"`,
        [],
        "GROUP BY 1 ORDER BY 2 DESC",
      ),
  ],
  [
    "what share of revenue comes from each category in 2024",
    (t) =>
      sales(
        t,
        `${CATEGORY}, ${REVENUE}, sum(o.amount)::DOUBLE / sum(sum(o.amount)::DOUBLE) OVER () AS "sales.revenue.percentOfTotal"`,
        [Y2024],
        "GROUP BY 1 ORDER BY 2 DESC",
      ),
  ],
  // Running totals.
  [
    "cumulative orders by month",
    (t) =>
      sales(
        t,
        `${MONTH}, ${COUNT}, sum(count(*)) OVER (ORDER BY date_trunc('month', o.created_at)) AS "sales.count.runningTotal"`,
        [],
        "GROUP BY date_trunc('month', o.created_at) ORDER BY 1",
      ),
  ],
  [
    "kumulierte Bestellungen pro Monat",
    (t) =>
      sales(
        t,
        `${MONTH}, ${COUNT}, sum(count(*)) OVER (ORDER BY date_trunc('month', o.created_at)) AS "sales.count.runningTotal"`,
        [],
        "GROUP BY date_trunc('month', o.created_at) ORDER BY 1",
      ),
  ],
  [
    "pedidos acumulados por mes",
    (t) =>
      sales(
        t,
        `${MONTH}, ${COUNT}, sum(count(*)) OVER (ORDER BY date_trunc('month', o.created_at)) AS "sales.count.runningTotal"`,
        [],
        "GROUP BY date_trunc('month', o.created_at) ORDER BY 1",
      ),
  ],
  [
    "cumulative revenue by month in 2024",
    (t) =>
      sales(
        t,
        `${MONTH}, ${REVENUE}, sum(sum(o.amount)::DOUBLE) OVER (ORDER BY date_trunc('month', o.created_at)) AS "sales.revenue.runningTotal"`,
        [Y2024],
        "GROUP BY date_trunc('month', o.created_at) ORDER BY 1",
      ),
  ],
  [
    "running total of revenue by quarter",
    (t) =>
      sales(
        t,
        `${QUARTER}, ${REVENUE}, sum(sum(o.amount)::DOUBLE) OVER (ORDER BY date_trunc('quarter', o.created_at)) AS "sales.revenue.runningTotal"`,
        [],
        "GROUP BY date_trunc('quarter', o.created_at) ORDER BY 1",
      ),
  ],
  // Rank.
  [
    "rank categories by revenue",
    (t) => sales(t, `${CATEGORY}, ${REVENUE}, rank() OVER (ORDER BY sum(o.amount) DESC) AS "sales.revenue.rank"`, [], "GROUP BY 1 ORDER BY 2 DESC"),
  ],
  [
    "Rangliste der Kategorien nach Umsatz",
    (t) => sales(t, `${CATEGORY}, ${REVENUE}, rank() OVER (ORDER BY sum(o.amount) DESC) AS "sales.revenue.rank"`, [], "GROUP BY 1 ORDER BY 2 DESC"),
  ],
  [
    "clasificación de categorías por ingresos",
    (t) => sales(t, `${CATEGORY}, ${REVENUE}, rank() OVER (ORDER BY sum(o.amount) DESC) AS "sales.revenue.rank"`, [], "GROUP BY 1 ORDER BY 2 DESC"),
  ],
  [
    "rank products by revenue",
    (t) => sales(t, `${PRODUCT}, ${REVENUE}, rank() OVER (ORDER BY sum(o.amount) DESC) AS "sales.revenue.rank"`, [], "GROUP BY 1 ORDER BY 2 DESC"),
  ],
  // Top N, and the top rows in each group.
  ["top 3 products by revenue", (t) => sales(t, `${PRODUCT}, ${REVENUE}`, [], "GROUP BY 1 ORDER BY 2 DESC LIMIT 3")],
  ["top 5 cities by revenue", (t) => sales(t, `${CITY}, ${REVENUE}`, [], "GROUP BY 1 ORDER BY 2 DESC LIMIT 5")],
  ["die 3 besten Städte nach Umsatz", (t) => sales(t, `${CITY}, ${REVENUE}`, [], "GROUP BY 1 ORDER BY 2 DESC LIMIT 3")],
  ["los 5 mejores ciudades por ingresos", (t) => sales(t, `${CITY}, ${REVENUE}`, [], "GROUP BY 1 ORDER BY 2 DESC LIMIT 5")],
  ["bottom 3 categories by revenue", (t) => sales(t, `${CATEGORY}, ${REVENUE}`, [], "GROUP BY 1 ORDER BY 2 LIMIT 3")],
  ["top 10 customers by revenue", (t) => sales(t, `${CUSTOMER}, ${REVENUE}`, [], "GROUP BY 1 ORDER BY 2 DESC LIMIT 10")],
  ["Top 5 Produkte nach Umsatz", (t) => sales(t, `${PRODUCT}, ${REVENUE}`, [], "GROUP BY 1 ORDER BY 2 DESC LIMIT 5")],
  ["los 3 mejores productos por ingresos", (t) => sales(t, `${PRODUCT}, ${REVENUE}`, [], "GROUP BY 1 ORDER BY 2 DESC LIMIT 3")],
  ["top 3 countries by revenue last quarter", (t) => sales(t, `${COUNTRY}, ${REVENUE}`, [Q2_2025], "GROUP BY 1 ORDER BY 2 DESC LIMIT 3")],
  [
    "top 2 products by revenue in each category",
    (t) =>
      sales(
        t,
        `${PRODUCT}, ${CATEGORY}, ${REVENUE}`,
        [],
        "GROUP BY 1, 2 QUALIFY row_number() OVER (PARTITION BY p.category ORDER BY sum(o.amount) DESC) <= 2 ORDER BY 2, 3 DESC",
      ),
  ],
  [
    "Top 2 Produkte nach Umsatz je Kategorie",
    (t) =>
      sales(
        t,
        `${PRODUCT}, ${CATEGORY}, ${REVENUE}`,
        [],
        "GROUP BY 1, 2 QUALIFY row_number() OVER (PARTITION BY p.category ORDER BY sum(o.amount) DESC) <= 2 ORDER BY 2, 3 DESC",
      ),
  ],
  [
    "los 2 mejores productos por ingresos en cada categoría",
    (t) =>
      sales(
        t,
        `${PRODUCT}, ${CATEGORY}, ${REVENUE}`,
        [],
        "GROUP BY 1, 2 QUALIFY row_number() OVER (PARTITION BY p.category ORDER BY sum(o.amount) DESC) <= 2 ORDER BY 2, 3 DESC",
      ),
  ],
  [
    "best city by revenue in each country",
    (t) =>
      sales(
        t,
        `${CITY}, ${COUNTRY}, ${REVENUE}`,
        [],
        "GROUP BY 1, 2 QUALIFY row_number() OVER (PARTITION BY c.country ORDER BY sum(o.amount) DESC) = 1 ORDER BY 2",
      ),
  ],
  [
    "beste Stadt nach Umsatz in jedem Land",
    (t) =>
      sales(
        t,
        `${CITY}, ${COUNTRY}, ${REVENUE}`,
        [],
        "GROUP BY 1, 2 QUALIFY row_number() OVER (PARTITION BY c.country ORDER BY sum(o.amount) DESC) = 1 ORDER BY 2",
      ),
  ],
  [
    "la ciudad con más ingresos en cada país",
    (t) =>
      sales(
        t,
        `${CITY}, ${COUNTRY}, ${REVENUE}`,
        [],
        "GROUP BY 1, 2 QUALIFY row_number() OVER (PARTITION BY c.country ORDER BY sum(o.amount) DESC) = 1 ORDER BY 2",
      ),
  ],
  // Conditions on numbers: on the rows, and on the measures of groups.
  ["orders of at least $300", (t) => sales(t, COUNT, ["o.amount >= 300"])],
  ["orders below $50", (t) => sales(t, COUNT, ["o.amount < 50"])],
  ["orders with more than 2 units", (t) => sales(t, COUNT, ["o.quantity > 2"])],
  ["Bestellungen über 500 €", (t) => sales(t, COUNT, ["o.amount > 500"])],
  ["pedidos de más de 500 dólares", (t) => sales(t, COUNT, ["o.amount > 500"])],
  ["orders with at least 4 units", (t) => sales(t, COUNT, ["o.quantity >= 4"])],
  ["Bestellungen mit mindestens 4 Stück", (t) => sales(t, COUNT, ["o.quantity >= 4"])],
  ["pedidos con al menos 4 unidades", (t) => sales(t, COUNT, ["o.quantity >= 4"])],
  ["revenue from orders above $200 by category", (t) => sales(t, `${CATEGORY}, ${REVENUE}`, ["o.amount > 200"], "GROUP BY 1 ORDER BY 2 DESC")],
  ["revenue from orders between $50 and $150", (t) => sales(t, REVENUE, ["o.amount BETWEEN 50 AND 150"])],
  ["Umsatz von Bestellungen zwischen 50 und 150 €", (t) => sales(t, REVENUE, ["o.amount BETWEEN 50 AND 150"])],
  ["ingresos de pedidos entre 50 y 150 dólares", (t) => sales(t, REVENUE, ["o.amount BETWEEN 50 AND 150"])],
  ["Kategorien mit einem Umsatz über 40000", (t) => sales(t, `${CATEGORY}, ${REVENUE}`, [], "GROUP BY 1 HAVING sum(o.amount) > 40000 ORDER BY 2 DESC")],
  ["categorías con ingresos de más de 40000", (t) => sales(t, `${CATEGORY}, ${REVENUE}`, [], "GROUP BY 1 HAVING sum(o.amount) > 40000 ORDER BY 2 DESC")],
  ["categories with revenue of at least 40000", (t) => sales(t, `${CATEGORY}, ${REVENUE}`, [], "GROUP BY 1 HAVING sum(o.amount) >= 40000 ORDER BY 2 DESC")],
  [
    "cities with revenue between 20000 and 60000",
    (t) => sales(t, `${CITY}, ${REVENUE}`, [], "GROUP BY 1 HAVING sum(o.amount) BETWEEN 20000 AND 60000 ORDER BY 2 DESC"),
  ],
  ["countries with more than 100 orders", (t) => sales(t, `${COUNTRY}, ${COUNT}`, [], "GROUP BY 1 HAVING count(*) > 100 ORDER BY 2 DESC")],
  ["Länder mit mehr als 100 Bestellungen", (t) => sales(t, `${COUNTRY}, ${COUNT}`, [], "GROUP BY 1 HAVING count(*) > 100 ORDER BY 2 DESC")],
  ["países con más de 100 pedidos", (t) => sales(t, `${COUNTRY}, ${COUNT}`, [], "GROUP BY 1 HAVING count(*) > 100 ORDER BY 2 DESC")],
  ["cities with at least 60 orders", (t) => sales(t, `${CITY}, ${COUNT}`, [], "GROUP BY 1 HAVING count(*) >= 60 ORDER BY 2 DESC")],
  ["Städte mit mindestens 60 Bestellungen", (t) => sales(t, `${CITY}, ${COUNT}`, [], "GROUP BY 1 HAVING count(*) >= 60 ORDER BY 2 DESC")],
  ["ciudades con al menos 60 pedidos", (t) => sales(t, `${CITY}, ${COUNT}`, [], "GROUP BY 1 HAVING count(*) >= 60 ORDER BY 2 DESC")],
  ["countries with revenue above 25000", (t) => sales(t, `${COUNTRY}, ${REVENUE}`, [], "GROUP BY 1 HAVING sum(o.amount) > 25000 ORDER BY 2 DESC")],
  // Values left out.
  ["orders by category excluding cancelled orders", (t) => sales(t, `${CATEGORY}, ${COUNT}`, ["o.status <> 'cancelled'"], "GROUP BY 1 ORDER BY 2 DESC")],
  ["Umsatz nach Kategorie ohne stornierte Bestellungen", (t) => sales(t, `${CATEGORY}, ${REVENUE}`, ["o.status <> 'cancelled'"], "GROUP BY 1 ORDER BY 2 DESC")],
  ["ingresos por categoría sin los pedidos cancelados", (t) => sales(t, `${CATEGORY}, ${REVENUE}`, ["o.status <> 'cancelled'"], "GROUP BY 1 ORDER BY 2 DESC")],
  ["revenue excluding Electronics", (t) => sales(t, REVENUE, ["p.category <> 'Electronics'"])],
  ["Umsatz außer Elektronik", (t) => sales(t, REVENUE, ["p.category <> 'Electronics'"])],
  ["ingresos excepto Books", (t) => sales(t, REVENUE, ["p.category <> 'Books'"])],
  ["revenue in 2025 excluding cancelled and returned orders", (t) => sales(t, REVENUE, [Y2025, "o.status NOT IN ('cancelled', 'returned')"])],
  ["Umsatz pro Monat ohne Electronics", (t) => sales(t, `${MONTH}, ${REVENUE}`, ["p.category <> 'Electronics'"], "GROUP BY 1 ORDER BY 1")],
  // The busiest period.
  ["busiest month in 2025", (t) => sales(t, `${MONTH}, ${COUNT}`, [Y2025], "GROUP BY 1 ORDER BY 2 DESC LIMIT 1")],
  ["Welcher Monat hatte 2025 die meisten Bestellungen?", (t) => sales(t, `${MONTH}, ${COUNT}`, [Y2025], "GROUP BY 1 ORDER BY 2 DESC LIMIT 1")],
  ["¿Cuál fue el mes con más pedidos en 2025?", (t) => sales(t, `${MONTH}, ${COUNT}`, [Y2025], "GROUP BY 1 ORDER BY 2 DESC LIMIT 1")],
  ["which month had the most revenue in 2024", (t) => sales(t, `${MONTH}, ${REVENUE}`, [Y2024], "GROUP BY 1 ORDER BY 2 DESC LIMIT 1")],
  ["busiest quarter", (t) => sales(t, `${QUARTER}, ${COUNT}`, [], "GROUP BY 1 ORDER BY 2 DESC LIMIT 1")],
  ["which weekday had the most orders", (t) => sales(t, `${WEEKDAY}, ${COUNT}`, [], "GROUP BY 1 ORDER BY 2 DESC LIMIT 1")],
  ["Welcher Wochentag hatte die meisten Bestellungen?", (t) => sales(t, `${WEEKDAY}, ${COUNT}`, [], "GROUP BY 1 ORDER BY 2 DESC LIMIT 1")],
  // The customers view, by its sign-up date.
  [
    "How many customers signed up each quarter?",
    (t) =>
      `SELECT strftime(date_trunc('quarter', signed_up_at), '%Y-%m-%d') AS "customer_base.signed_up_at.quarter", count(*) AS "customer_base.count" FROM customers WHERE tenant = '${t}' GROUP BY 1 ORDER BY 1`,
  ],
  [
    "¿Cuántos clientes se registraron cada trimestre?",
    (t) =>
      `SELECT strftime(date_trunc('quarter', signed_up_at), '%Y-%m-%d') AS "customer_base.signed_up_at.quarter", count(*) AS "customer_base.count" FROM customers WHERE tenant = '${t}' GROUP BY 1 ORDER BY 1`,
  ],
  [
    "Wie viele Kunden haben sich pro Quartal angemeldet?",
    (t) =>
      `SELECT strftime(date_trunc('quarter', signed_up_at), '%Y-%m-%d') AS "customer_base.signed_up_at.quarter", count(*) AS "customer_base.count" FROM customers WHERE tenant = '${t}' GROUP BY 1 ORDER BY 1`,
  ],
  // German compounds.
  ["Gesamtumsatz 2024", (t) => sales(t, REVENUE, [Y2024])],
  ["Umsatzentwicklung", (t) => sales(t, `${MONTH}, ${REVENUE}`, [], "GROUP BY 1 ORDER BY 1")],
  ["Umsatzentwicklung in Deutschland", (t) => sales(t, `${MONTH}, ${REVENUE}`, ["c.country = 'DE'"], "GROUP BY 1 ORDER BY 1")],
  ["Kundenanzahl", (t) => `SELECT count(*) AS "customer_base.count" FROM customers WHERE tenant = '${t}'`],
  ["Bestellwert nach Kategorie", (t) => sales(t, `${CATEGORY}, ${AOV}`, [], "GROUP BY 1 ORDER BY 2 DESC")],
  ["Stückzahl nach Kategorie", (t) => sales(t, `${CATEGORY}, ${UNITS}`, [], "GROUP BY 1 ORDER BY 2 DESC")],
  ["Gesamtumsatz nach Kategorie", (t) => sales(t, `${CATEGORY}, ${REVENUE}`, [], "GROUP BY 1 ORDER BY 2 DESC")],
  ["Gesamtbestellwert nach Land", (t) => sales(t, `${COUNTRY}, ${REVENUE}`, [], "GROUP BY 1 ORDER BY 2 DESC")],
  // Relative periods (the data ends on Jun 30, 2025: they count from there).
  ["revenue last quarter", (t) => sales(t, REVENUE, [Q2_2025])],
  ["orders last month", (t) => sales(t, COUNT, [JUNE_2025])],
  ["revenue in the last 3 months", (t) => sales(t, REVENUE, [Q2_2025])],
  ["revenue YTD", (t) => sales(t, REVENUE, [during("2025-01-01", "2025-07-01")])],
  ["Umsatz im letzten Monat", (t) => sales(t, REVENUE, [JUNE_2025])],
  ["pedidos el mes pasado", (t) => sales(t, COUNT, [JUNE_2025])],
  ["revenue by category last year", (t) => sales(t, `${CATEGORY}, ${REVENUE}`, [Y2024], "GROUP BY 1 ORDER BY 2 DESC")],
  ["Umsatz nach Kategorie im letzten Quartal", (t) => sales(t, `${CATEGORY}, ${REVENUE}`, [Q2_2025], "GROUP BY 1 ORDER BY 2 DESC")],
  ["ingresos por categoría el año pasado", (t) => sales(t, `${CATEGORY}, ${REVENUE}`, [Y2024], "GROUP BY 1 ORDER BY 2 DESC")],
  ["Umsatz dieses Jahr", (t) => sales(t, REVENUE, [Y2025])],
  ["ingresos este año", (t) => sales(t, REVENUE, [Y2025])],
  [
    "weekly orders last month",
    (t) => sales(t, `strftime(date_trunc('week', o.created_at), '%Y-%m-%d') AS "sales.created_at.week", ${COUNT}`, [JUNE_2025], "GROUP BY 1 ORDER BY 1"),
  ],
  ["monthly revenue in 2024", (t) => sales(t, `${MONTH}, ${REVENUE}`, [Y2024], "GROUP BY 1 ORDER BY 1")],
  ["Umsatz im März 2025", (t) => sales(t, REVENUE, [during(...MAR)])],
  ["ingresos en marzo de 2025", (t) => sales(t, REVENUE, [during(...MAR)])],
  // Why a figure changed: the period against the one before it.
  ["why did orders rise in March 2025?", (t) => why(t, "count(*)", FEB, MAR)],
  ["Warum sind die Bestellungen im März 2025 gestiegen?", (t) => why(t, "count(*)", FEB, MAR, "de")],
  ["¿Por qué subieron los pedidos en marzo de 2025?", (t) => why(t, "count(*)", FEB, MAR, "es")],
  ["why did revenue change in May 2025?", (t) => why(t, "sum(o.amount)", APR, MAY)],
  ["why did revenue fall?", (t) => why(t, "sum(o.amount)", MAY, JUN)],
  ["Warum ist der Umsatz gestiegen?", (t) => why(t, "sum(o.amount)", MAY, JUN, "de")],
  ["¿Por qué subieron los ingresos en abril de 2025?", (t) => why(t, "sum(o.amount)", MAR, APR, "es")],
  // Filters on values, and groupings.
  ["revenue by category", (t) => sales(t, `${CATEGORY}, ${REVENUE}`, [], "GROUP BY 1 ORDER BY 2 DESC")],
  ["orders by status", (t) => sales(t, `${STATUS}, ${COUNT}`, [], "GROUP BY 1 ORDER BY 2 DESC")],
  ["Bestellanzahl nach Status", (t) => sales(t, `${STATUS}, ${COUNT}`, [], "GROUP BY 1 ORDER BY 2 DESC")],
  ["pedidos por estado", (t) => sales(t, `${STATUS}, ${COUNT}`, [], "GROUP BY 1 ORDER BY 2 DESC")],
  ["revenue in Germany", (t) => sales(t, REVENUE, ["c.country = 'DE'"])],
  ["Umsatz in Deutschland", (t) => sales(t, REVENUE, ["c.country = 'DE'"])],
  ["ingresos en España", (t) => sales(t, REVENUE, ["c.country = 'ES'"])],
  ["revenue by city in France", (t) => sales(t, `${CITY}, ${REVENUE}`, ["c.country = 'FR'"], "GROUP BY 1 ORDER BY 2 DESC")],
  ["average order value by category", (t) => sales(t, `${CATEGORY}, ${AOV}`, [], "GROUP BY 1 ORDER BY 2 DESC")],
  ["durchschnittlicher Bestellwert nach Kategorie", (t) => sales(t, `${CATEGORY}, ${AOV}`, [], "GROUP BY 1 ORDER BY 2 DESC")],
  ["units sold by category", (t) => sales(t, `${CATEGORY}, ${UNITS}`, [], "GROUP BY 1 ORDER BY 2 DESC")],
  [
    "compare Electronics and Books revenue",
    (t) => sales(t, `${CATEGORY}, ${REVENUE}`, ["p.category IN ('Electronics', 'Books')"], "GROUP BY 1 ORDER BY 2 DESC"),
  ],
  ["total revenue", (t) => sales(t, REVENUE)],
  ["how many orders", (t) => sales(t, COUNT)],
];

/**
 * What the chat says instead of figures: a request to change data, a word the data does not
 * hold (said with what it can be grouped by, or what it holds), in the question's language.
 */
export const REFUSALS: [string, string][] = [
  ["average order value by customer segment", "There is no segment in this data; you can group customers by country or city."],
  ["durchschnittlicher Bestellwert nach Kundensegment", "In diesen Daten gibt es nichts zu „segment“; Kunden lassen sich nach Land oder Stadt gruppieren."],
  ["valor medio del pedido por segmento de cliente", "En estos datos no hay «segmento»; puede agrupar los clientes por país o ciudad."],
  ["valor medio de pedido por segmento de cliente", "En estos datos no hay «segmento»; puede agrupar los clientes por país o ciudad."],
  // A group's figure or a row's value in one "or": groups and rows cannot be one filter.
  ["categories with revenue above 40000 or in Germany", "not a group's figure and a row's value in one “or”"],
  ["Kategorien mit einem Umsatz über 40000 oder in Deutschland", "nicht die Zahl einer Gruppe und den Wert einer Zeile"],
  ["categorías con ingresos de más de 40000 o en Alemania", "no la cifra de un grupo y el valor de una fila"],
  ["delete all orders", "The chat only reads data: it cannot delete, change or add anything."],
  // A number of orders per customer is not a row's own number: no figure rather than a wrong one.
  ["customers with more than 3 orders", "Nothing in the data model matches"],
  ["clientes con más de 3 pedidos", "Nada en el modelo de datos coincide"],
  // A question word is never the unknown term: the thing asked about is.
  ["¿Quién es el director general?", "no hay «director»"],
  ["lösche alle Bestellungen", "Der Chat liest Daten nur: Er kann nichts löschen, ändern oder hinzufügen."],
  ["borra todos los pedidos", "El chat solo lee datos: no puede borrar, cambiar ni añadir nada."],
  ["update the status of every order to shipped", "The chat only reads data"],
  ["How many employees work at our company?", "There are no employees in this data. It holds Sales (Orders, Revenue,"],
  ["Wie viele Mitarbeiter hat unser Unternehmen?", "In diesen Daten gibt es nichts zu „mitarbeiter“. Sie enthalten Verkäufe (Bestellungen, Umsatz,"],
  ["¿Cuántos empleados trabajan en nuestra empresa?", "En estos datos no hay «empleados». Contienen Ventas (Pedidos, Ingresos,"],
  ["what is our profit margin by category", "There is no profit in this data. It holds"],
  ["What's the weather like in Berlin?", "There is no weather in this data. It holds"],
  ["Wie ist das Wetter in Berlin?", "In diesen Daten gibt es nichts zu „wetter“. Sie enthalten"],
  ["What is our stock level by product?", "There is no stock in this data. It holds"],
  ["Wie hoch ist unser Lagerbestand?", "In diesen Daten gibt es nichts zu „lagerbestand“. Sie enthalten"],
  ["¿Cuál es el margen de beneficio por categoría?", "En estos datos no hay «margen». Contienen"],
  ["revenue by supplier", "There is no supplier in this data; you can group sales by status, country, city or category."],
  ["Umsatz nach Lieferant", "In diesen Daten gibt es nichts zu „lieferant“; Verkäufe lassen sich nach Status, Land, Stadt oder Kategorie gruppieren."],
  ["ingresos por proveedor", "En estos datos no hay «proveedor»; puede agrupar ventas por estado, país, ciudad o categoría."],
  ["insert a new order", "The chat only reads data: it cannot delete, change or add anything."],
  ["drop the orders table", "The chat only reads data: it cannot delete, change or add anything."],
  ["ändere den Status aller Bestellungen auf versandt", "Der Chat liest Daten nur: Er kann nichts löschen, ändern oder hinzufügen."],
  ["actualiza el precio de todos los productos", "El chat solo lee datos: no puede borrar, cambiar ni añadir nada."],
];

/**
 * Words of answers in German and Spanish: members, parts of time and values named by the demo
 * dictionaries' titles and labels for the question's language (the surface's own is English),
 * numbers written for that language. Each answer's text holds every `said` and none of `notSaid`.
 */
export const TRANSLATED: [question: string, said: (string | RegExp)[], notSaid: string[]][] = [
  [
    "Umsatz nach Land",
    ["**Umsatz**, nach Land.", "liegt bei Umsatz vorn mit", "**Vereinigte Staaten**", /\*\*\d{3}\.\d{3},\d{2}\s\$\*\*/],
    ["Revenue", "Country"],
  ],
  ["ingresos por país", ["**Ingresos**, por País.", "encabeza Ingresos con", "**Estados Unidos**", /\*\*\d{3}\.\d{3},\d{2}\sUS\$\*\*/], ["Revenue", "Country"]],
  ["Anzahl Bestellungen pro Monat im Jahr 2024", ["**Bestellungen**, pro Monat, Zeitraum Bestelldatum: 2024"], ["Orders", "Order Date"]],
  ["pedidos por mes en 2024", ["**Pedidos**, por mes, periodo Fecha del pedido: 2024"], ["Orders", "Order Date"]],
  ["Umsatz nach Wochentag", ["**Umsatz**, nach Wochentag.", "liegt bei Umsatz vorn"], ["Revenue", "day of week"]],
  ["pedidos por día de la semana", ["**Pedidos**, por día de la semana.", "encabeza Pedidos"], ["Orders"]],
  // The leading weekday opens the sentence with a capital, though Spanish writes it small.
  [
    "¿Qué día de la semana tiene más pedidos?",
    [/^Así entendí la pregunta: \*\*Pedidos\*\*, por día de la semana, .*\n\n\*\*(Lunes|Martes|Miércoles|Jueves|Viernes|Sábado|Domingo)\*\* encabeza Pedidos/],
    ["Orders"],
  ],
  ["Umsatzanteil nach Land für DE und FR", ["Anteil an Umsatz insgesamt: **Deutschland** **", "für Land = Deutschland / Frankreich"], ["Revenue", "Country"]],
  ["porcentaje de ingresos por país para DE y FR", ["Parte del total de Ingresos: **Alemania** **", "para País = Alemania / Francia"], ["Revenue", "Country"]],
  [
    "durchschnittlicher Umsatz nach Kategorie",
    ["**Umsatz / Bestellungen, Umsatz und Bestellungen**, nach Kategorie.", "**Elektronik** liegt bei Umsatz / Bestellungen vorn"],
    ["Revenue", "Orders"],
  ],
  [
    "ingresos medios por categoría",
    ["**Ingresos / Pedidos, Ingresos y Pedidos**, por Categoría.", "**Electrónica** encabeza Ingresos / Pedidos"],
    ["Revenue", "Orders"],
  ],
  ["Welcher Anteil unseres Umsatzes kommt aus Elektronik?", ["Anteil an Umsatz (Kategorie = Elektronik): **"], ["Revenue", "Category"]],
  ["Vergleiche den Umsatz im Q1 2025 mit Q1 2024 nach Kategorie", ["Das stärkste Wachstum bei Umsatz: **"], ["Revenue"]],
  ["compara los ingresos del T1 2025 con el T1 2024 por categoría", ["El mayor crecimiento de Ingresos: **"], ["Revenue"]],
  ["Umsatzwachstum pro Monat", ["Das stärkste Wachstum bei Umsatz: **"], ["Revenue"]],
  ["Warum ist der Umsatz im Februar 2025 gesunken?", ["Umsatz: **", "(Kategorie)", "(Status)"], ["Revenue", "Category"]],
  ["¿Por qué bajaron los ingresos en febrero de 2025?", ["Ingresos: **", "(Categoría)", "(Estado)"], ["Revenue", "Category"]],
  ["¿Por qué los ingresos en Alemania son más bajos que en Francia?", ["Ingresos en **Alemania**: **", "en **Francia**"], ["Revenue", "**DE**"]],
  ["¿Cuál fue el mes con más pedidos en 2024?", ["El mes con más Pedidos fue **noviembre de 2024**, con **"], ["Orders"]],
  ["Wie viele neue Kunden haben sich pro Monat angemeldet?", ["**Kunden**, pro Monat."], ["Customers"]],
];

/** Worked-out columns of German and Spanish answers, headed in the question's language: [question, column, heading]. */
export const HEADINGS: [string, string, string][] = [
  ["Welchen Anteil am Umsatz hat jede Kategorie?", "sales.revenue.percentOfTotal", "Umsatz (Anteil an der Summe)"],
  ["kumulierter Umsatz pro Monat", "sales.revenue.runningTotal", "Umsatz (laufende Summe)"],
  ["Vergleiche den Umsatz im Q1 2025 mit Q1 2024 nach Kategorie", "sales.revenue.relativeChange", "Umsatz (Veränderung in %)"],
  ["Umsatzwachstum pro Monat", "sales.revenue_change_pct", "Umsatz (Veränderung in % gegenüber 1 Monat davor)"],
  ["clasificación de ciudades por ingresos", "sales.revenue.rank", "Ingresos (puesto)"],
  ["¿Qué porcentaje de los ingresos aporta cada categoría?", "sales.revenue.percentOfTotal", "Ingresos (parte del total)"],
  ["compara los ingresos del T1 2025 con el T1 2024 por categoría", "sales.revenue.baseline", "Ingresos (T1 2024)"],
];
