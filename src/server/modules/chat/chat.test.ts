import { DuckDBInstance } from "@duckdb/node-api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SemanticQuery, TimeDimension } from "../../../schema/semantic-query";
import type { PeriodComparison } from "../../../schema/dashboard";
import { comparisonsOf, queryOf, readQuestion, viewerIndexes } from "../../ai/builtin";
import { prepareQueryTestData, type QueryTestData } from "../query/query-test-data";
import { createTestPlatform, storageKinds, type TestPlatform } from "../../testing/test-platform";
import { policyViews } from "./service";
import { readNdjson, type Line } from "./chat-test-support";
import { createShopDeployment, embedSession } from "../../testing/shop-deployment";

/**
 * The builtin engine against the demo model: each question's semantic query, and the answer's
 * rows equal to what the query API gives the same caller for that query.
 */
const month: TimeDimension = { dimension: "sales.created_at", granularity: "month" };
/** Each row against the same measure one `unit` earlier: previous value, change, relative change. */
const against = (measure: string, unit: "month" | "quarter" | "year"): PeriodComparison[] => [
  {
    measure,
    timeDimension: "sales.created_at",
    offset: { amount: 1, unit },
    outputs: [`${measure}_prev_${unit}`, `${measure}_change`, `${measure}_change_pct`],
  },
];
const thisYearToDate: TimeDimension = { dimension: "sales.created_at", granularity: "year", dateRange: ["2025-01-01", "2025-06-30"] };

const QUESTIONS: [string, SemanticQuery | null, PeriodComparison[]?][] = [
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
];

type Tenant = "acme-corp" | "globex-inc";
const orders2024 = (t: Tenant) => `tenant = '${t}' AND created_at >= '2024-01-01' AND created_at < '2025-01-01'`;
const revenue2024NotCancelled = (t: Tenant) => `SELECT sum(amount)::DOUBLE AS "sales.revenue" FROM orders WHERE ${orders2024(t)} AND status <> 'cancelled'`;
const busiestMonth2024 = (t: Tenant) =>
  `SELECT strftime(date_trunc('month', created_at), '%Y-%m-%d') AS "sales.created_at.month", count(*) AS "sales.count"
   FROM orders WHERE ${orders2024(t)} GROUP BY 1 ORDER BY 2 DESC LIMIT 1`;
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
const between100And500 = (t: Tenant) => `SELECT count(*) AS "sales.count" FROM orders WHERE tenant = '${t}' AND amount BETWEEN 100 AND 500`;
/** What moved revenue from January to February 2025: each value of each grouping, by the size of its change. */
const whyFebruary = (t: Tenant) => {
  const groupings: [string, string][] = [
    ["Status", "o.status"],
    ["Country", "c.country"],
    ["City", "c.city"],
    ["Category", "p.category"],
  ];
  const per = groupings
    .map(
      ([title, column], i) => `SELECT '${title}' AS dimension, ${i} AS pos, ${column} AS value,
        coalesce(sum(o.amount) FILTER (WHERE o.created_at >= '2025-01-01' AND o.created_at < '2025-02-01'), 0)::DOUBLE AS baseline,
        coalesce(sum(o.amount) FILTER (WHERE o.created_at >= '2025-02-01' AND o.created_at < '2025-03-01'), 0)::DOUBLE AS current
      FROM orders o JOIN customers c ON c.customer_id = o.customer_id JOIN products p ON p.product_id = o.product_id
      WHERE o.tenant = '${t}' AND o.created_at >= '2025-01-01' AND o.created_at < '2025-03-01' GROUP BY 3`,
    )
    .join(" UNION ALL ");
  return `WITH v AS (${per}), total AS (SELECT sum(current - baseline) / 4 AS change FROM v)
    SELECT dimension, value, baseline, current, current - baseline AS change, (current - baseline) / total.change AS share
    FROM v, total WHERE current <> baseline ORDER BY abs(current - baseline) DESC, pos, value LIMIT 10`;
};

/**
 * The figures of answers, against SQL written by hand on the demo data of each tenant (never the
 * query API): the answer's table holds exactly these rows, for an acme viewer and a globex viewer.
 */
const FIGURES: [string, (t: Tenant) => string][] = [
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
  ["busiest month in 2024", busiestMonth2024],
  ["Welcher Monat hatte 2024 die meisten Bestellungen?", busiestMonth2024],
  ["¿Cuál fue el mes con más pedidos en 2024?", busiestMonth2024],
  ["How many new customers signed up each month?", signUpsByMonth],
  ["Wie viele neue Kunden haben sich pro Monat angemeldet?", signUpsByMonth],
  ["¿Cuántos clientes nuevos se registraron cada mes?", signUpsByMonth],
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
  ["why did revenue fall in February 2025?", whyFebruary],
  ["Warum ist der Umsatz im Februar 2025 gesunken?", whyFebruary],
  ["¿Por qué bajaron los ingresos en febrero de 2025?", whyFebruary],
];

/** Rows as plain figures: numbers to the cent, times as their day. */
const asFigures = (rows: Record<string, unknown>[], keys: string[]) =>
  rows.map((r) =>
    Object.fromEntries(
      keys.map((k) => {
        const v = r[k];
        return [
          k,
          typeof v === "string" && /^\d{4}-\d{2}-\d{2}/.test(v)
            ? v.slice(0, 10)
            : typeof v === "string" && !/^[\d.-]+$/.test(v)
              ? v
              : Math.round(Number(v) * 100) / 100,
        ];
      }),
    ),
  );

/**
 * What the chat says instead of figures: a request to change data, a word the data does not
 * hold (said with what it can be grouped by, or what it holds), in the question's language.
 */
const REFUSALS: [string, string][] = [
  ["average order value by customer segment", "There is no segment in this data; you can group customers by country or city."],
  ["durchschnittlicher Bestellwert nach Kundensegment", "In diesen Daten gibt es nichts zu „segment“; Kunden lassen sich nach Land oder Stadt gruppieren."],
  ["valor medio del pedido por segmento de cliente", "En estos datos no hay «segmento»; puede agrupar los clientes por país o ciudad."],
  ["delete all orders", "The chat only reads data: it cannot delete, change or add anything."],
  ["lösche alle Bestellungen", "Der Chat liest Daten nur: Er kann nichts löschen, ändern oder hinzufügen."],
  ["borra todos los pedidos", "El chat solo lee datos: no puede borrar, cambiar ni añadir nada."],
  ["update the status of every order to shipped", "The chat only reads data"],
  ["How many employees work at our company?", "There are no employees in this data. It holds Sales (Orders, Revenue,"],
  ["Wie viele Mitarbeiter hat unser Unternehmen?", "In diesen Daten gibt es nichts zu „mitarbeiter“. Sie enthalten Sales (Orders, Revenue,"],
  ["¿Cuántos empleados trabajan en nuestra empresa?", "En estos datos no hay «empleados». Contienen Sales (Orders, Revenue,"],
  ["what is our profit margin by category", "There is no profit in this data. It holds"],
  ["What's the weather like in Berlin?", "There is no weather in this data. It holds"],
];

let data: QueryTestData;
/** FIGURES' SQL results per tenant, read before the platform opens the file. */
const expectedFigures = new Map<string, Record<string, unknown>[]>();
beforeAll(async () => {
  data = await prepareQueryTestData({ rows: 3000, postgres: false });
  const instance = await DuckDBInstance.create(data.duckdbPath, { access_mode: "READ_ONLY" });
  const conn = await instance.connect();
  for (const [question, sql] of FIGURES) {
    for (const tenant of ["acme-corp", "globex-inc"] as const) {
      expectedFigures.set(`${tenant} ${question}`, (await conn.runAndReadAll(sql(tenant))).getRowObjectsJS() as Record<string, unknown>[]);
    }
  }
  conn.closeSync();
  instance.closeSync();
}, 60_000);
afterAll(() => data?.cleanup());

describe.each(storageKinds)("chat API and the builtin engine (%s storage)", (storage) => {
  let t: TestPlatform;
  let deploymentId: number;
  const tokens: Record<string, string> = {};

  const embedToken = async (tenant: string, externalId: string, settings?: Record<string, unknown>) =>
    (await embedSession(t, deploymentId, { externalId, embedTenantName: tenant, ...(settings ? { settings } : {}) })).token;

  const base = () => `/api/v1/deployments/${deploymentId}/chat/threads`;

  async function newThread(token: string) {
    const res = await t.api("POST", base(), {}, token);
    expect(res.status, await res.clone().text()).toBe(201);
    return ((await res.json()) as { id: string }).id;
  }

  async function ask(token: string, threadId: string, content: string, messageId?: string) {
    const res = await t.api("POST", `${base()}/${threadId}/messages`, { content, ...(messageId ? { messageId } : {}) }, token);
    expect(res.status, await res.clone().text()).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/x-ndjson");
    return readNdjson(res);
  }

  beforeAll(async () => {
    t = await createTestPlatform({ storage });
    deploymentId = await createShopDeployment(t, data.duckdbPath);
    tokens.acme = await embedToken("acme-corp", "ann");
    tokens.acme2 = await embedToken("acme-corp", "bob");
    tokens.globex = await embedToken("globex-inc", "ann");
    tokens.noAi = await embedToken("acme-corp", "carl", { allowAi: false });
  }, 60_000);
  afterAll(() => t?.close());

  describe("the builtin engine's reading of questions", () => {
    it.each(QUESTIONS)("%s", async (question, expected, comparisons) => {
      const engine = await t.deps.queryEngines.get(deploymentId);
      const ctx = {
        deploymentId,
        engine,
        securityContext: { embedTenant: null, groups: [], userAttributes: {}, role: "admin" as const, userId: t.adminUserId },
        locale: "en",
        allowAuthoring: false,
        signal: new AbortController().signal,
        queryTimeoutMs: 30_000,
        includeSql: false,
      };
      const { indexes, reference } = await viewerIndexes(ctx);
      const reading = readQuestion(question, indexes, { locale: "en", reference });
      if (expected === null) expect(reading.ok).toBe(false);
      else {
        expect(reading.ok).toBe(true);
        if (reading.ok) {
          expect(queryOf(reading.understanding)).toEqual(expected);
          expect(comparisonsOf(reading.understanding)).toEqual(comparisons);
        }
      }
    });
  });

  describe("answers through the chat API equal the query API's rows for the same caller", () => {
    it.each(QUESTIONS.filter(([, q]) => q !== null).map(([q]) => q))("%s", async (question) => {
      const threadId = await newThread(tokens.acme!);
      const lines = await ask(tokens.acme!, threadId, question);
      expect(lines[0]).toMatchObject({ __cutoff__: true, chatId: threadId });
      const last = lines[lines.length - 1]!;
      expect(last.__state__, JSON.stringify(last)).toBeDefined();
      const queryPart = lines.find((l) => l.type === "query") as Line & { query: SemanticQuery; periodComparisons?: PeriodComparison[] };
      const tablePart = lines.find((l) => l.type === "table") as Line & { rows: unknown[] };
      expect(queryPart && tablePart, JSON.stringify(lines).slice(0, 1500)).toBeTruthy();
      const body = { query: queryPart.query, ...(queryPart.periodComparisons ? { periodComparisons: queryPart.periodComparisons } : {}) };
      const direct = await t.api("POST", `/api/v1/deployments/${deploymentId}/query`, body, tokens.acme);
      expect(direct.status).toBe(200);
      const rows = ((await direct.json()) as { data: unknown[] }).data;
      expect(tablePart.rows).toEqual(rows.slice(0, 500));
      // The embed viewer's rows are only its tenant's: the answer never carries SQL for an embed viewer.
      expect(queryPart.sql).toBeUndefined();
      const text = lines
        .filter((l) => l.type === "text")
        .map((l) => l.text)
        .join("");
      expect(text.length).toBeGreaterThan(20);
    });
  });

  describe("answers' figures equal SQL written by hand, each tenant its own", () => {
    it.each(FIGURES.map(([q]) => q))("%s", async (question) => {
      const answers: Record<string, unknown>[][] = [];
      for (const [tenant, token] of [
        ["acme-corp", tokens.acme!],
        ["globex-inc", tokens.globex!],
      ] as const) {
        const lines = await ask(token, await newThread(token), question);
        const table = lines.find((l) => l.type === "table") as Line & { rows: Record<string, unknown>[] };
        expect(table, JSON.stringify(lines).slice(0, 1500)).toBeTruthy();
        const expected = expectedFigures.get(`${tenant} ${question}`)!;
        expect(expected.length).toBeGreaterThan(0);
        const keys = Object.keys(expected[0]!);
        expect(asFigures(table.rows, keys)).toEqual(asFigures(expected, keys));
        answers.push(asFigures(table.rows, keys));
      }
      // Tenant isolation: globex's figures are not acme's.
      expect(answers[1]).not.toEqual(answers[0]);
    });

    it.each([
      ["busiest month in 2024", "The top month by Orders was **November 2024**, with **123**."],
      ["¿Cuál fue el mes con más pedidos en 2024?", "El mes con más Orders fue **noviembre de 2024**, con **123**."],
    ])("%s: answered as a sentence", async (question, sentence) => {
      const lines = await ask(tokens.acme!, await newThread(tokens.acme!), question);
      const text = lines
        .filter((l) => l.type === "text")
        .map((l) => l.text)
        .join("");
      expect(text).toContain(sentence);
    });

    it("leaves the cancelled orders out: the figure is not the one with them", async () => {
      const lines = await ask(tokens.acme!, await newThread(tokens.acme!), "revenue in 2024 excluding cancelled orders");
      const table = lines.find((l) => l.type === "table") as Line & { rows: Record<string, unknown>[] };
      const all = await t.api(
        "POST",
        `/api/v1/deployments/${deploymentId}/query`,
        { query: { measures: ["sales.revenue"], timeDimensions: [{ dimension: "sales.created_at", dateRange: ["2024-01-01", "2024-12-31"] }] } },
        tokens.acme,
      );
      const withCancelled = Number(((await all.json()) as { data: Record<string, unknown>[] }).data[0]!["sales.revenue"]);
      expect(Number(table.rows[0]!["sales.revenue"])).toBeLessThan(withCancelled);
    });
  });

  describe("no figures for what the data does not hold, nor for changing it", () => {
    it.each(REFUSALS)("%s", async (question, said) => {
      const lines = await ask(tokens.acme!, await newThread(tokens.acme!), question);
      const text = lines
        .filter((l) => l.type === "text")
        .map((l) => l.text)
        .join("");
      expect(text).toContain(said);
      expect(lines.some((l) => l.type === "table" || l.type === "query" || l.type === "chart")).toBe(false);
      expect(lines.some((l) => l.type === "tool_call" && l.name === "run_query")).toBe(false);
      const suggestions = lines.find((l) => l.type === "suggestions") as Line & { suggestions: string[] };
      expect(suggestions.suggestions.length).toBeGreaterThan(0);
    });
  });

  it.each([
    ["top 3 countries by revenue growth", "desc", "the 3 with the biggest change"],
    ["bottom 2 countries by revenue growth", "asc", "the 2 with the smallest change"],
    ["Top 3 Länder nach Umsatzwachstum", "desc", "die 3 mit der größten Veränderung"],
  ] as const)("%s: ranks the rows by their change and keeps that many", async (question, direction, said) => {
    const threadId = await newThread(tokens.acme!);
    const lines = await ask(tokens.acme!, threadId, question);
    const queryPart = lines.find((l) => l.type === "query") as Line & { query: SemanticQuery; periodComparisons: PeriodComparison[] };
    const tablePart = lines.find((l) => l.type === "table") as Line & { rows: Record<string, unknown>[] };
    expect(queryPart.query.limit).toBeUndefined();
    const direct = await t.api(
      "POST",
      `/api/v1/deployments/${deploymentId}/query`,
      { query: queryPart.query, periodComparisons: queryPart.periodComparisons },
      tokens.acme,
    );
    const rows = ((await direct.json()) as { data: Record<string, unknown>[] }).data;
    const pct = queryPart.periodComparisons[0]!.outputs![2]!;
    const limit = Number(/\d+/.exec(question)![0]);
    expect(rows.length).toBeGreaterThan(limit);
    const finite = rows.filter((r) => r[pct] !== null && Number.isFinite(Number(r[pct])));
    const expected = [...finite].sort((a, b) => (direction === "asc" ? Number(a[pct]) - Number(b[pct]) : Number(b[pct]) - Number(a[pct]))).slice(0, limit);
    expect(tablePart.rows).toEqual(expected);
    const text = lines
      .filter((l) => l.type === "text")
      .map((l) => l.text)
      .join("");
    expect(text).toContain(said);
  });

  it.each([
    ["orders by day of week", /\b(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)\b/, "by day of week"],
    ["Umsatz nach Wochentag", /\b(Montag|Dienstag|Mittwoch|Donnerstag|Freitag|Samstag|Sonntag)\b/, "nach Wochentag"],
    ["pedidos por día de la semana", /\b(lunes|martes|miércoles|jueves|viernes|sábado|domingo)\b/, "por día de la semana"],
  ] as const)("%s: names the weekdays in the question's language, in calendar order", async (question, weekday, grouped) => {
    const threadId = await newThread(tokens.acme!);
    const lines = await ask(tokens.acme!, threadId, question);
    const text = lines
      .filter((l) => l.type === "text")
      .map((l) => l.text)
      .join("");
    expect(text).toMatch(weekday);
    expect(text).toContain(grouped);
    const table = lines.find((l) => l.type === "table") as Line & { rows: Record<string, unknown>[]; columns: { key: string; timePart?: string }[] };
    expect(table.rows.map((r) => r["sales.created_at.dayOfWeek"])).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(table.columns.find((c) => c.key === "sales.created_at.dayOfWeek")?.timePart).toBe("dayOfWeek");
    // The chart: a bar per weekday, named in the question's language, Monday first.
    const chart = lines.find((l) => l.type === "chart") as Line & { spec: { encoding: { x: { type: string; sort: string[] } } } };
    expect(chart.spec.encoding.x.type).toBe("ordinal");
    expect(chart.spec.encoding.x.sort).toHaveLength(7);
    expect(chart.spec.encoding.x.sort[0]).toMatch(weekday);
  });

  it("answers a question outside the model with 'could not answer' and suggestions, never numbers", async () => {
    const threadId = await newThread(tokens.acme!);
    const lines = await ask(tokens.acme!, threadId, "who is the CEO of the company");
    const text = lines
      .filter((l) => l.type === "text")
      .map((l) => l.text)
      .join("");
    expect(text).toMatch(/could not answer/);
    expect(lines.some((l) => l.type === "table" || l.type === "query")).toBe(false);
    const suggestions = lines.find((l) => l.type === "suggestions") as Line & { suggestions: string[] };
    expect(suggestions.suggestions.length).toBeGreaterThan(0);
    // Each suggestion is itself a question the engine answers.
    const again = await ask(tokens.acme!, threadId, suggestions.suggestions[0]!);
    expect(again.some((l) => l.type === "table")).toBe(true);
  });

  it("answers in the question's language", async () => {
    const threadId = await newThread(tokens.acme!);
    const de = await ask(tokens.acme!, threadId, "Umsatz nach Land im letzten Quartal");
    expect(
      de
        .filter((l) => l.type === "text")
        .map((l) => l.text)
        .join(""),
    ).toMatch(/So habe ich die Frage verstanden/);
    const es = await ask(tokens.acme!, threadId, "pedidos por estado");
    expect(
      es
        .filter((l) => l.type === "text")
        .map((l) => l.text)
        .join(""),
    ).toMatch(/Así entendí la pregunta/);
  });

  it("keeps threads per user and tenant, with history, rejoin by messageId and deletion", async () => {
    const threadId = await newThread(tokens.acme!);
    const first = await ask(tokens.acme!, threadId, "revenue by category", "msg-1");
    const state = first[first.length - 1]!.__state__ as { id: string; status: string; parts: unknown[] };
    expect(state).toMatchObject({ id: "msg-1", status: "completed" });
    // Posting the same messageId again returns the finished answer, not a second one.
    const again = await ask(tokens.acme!, threadId, "revenue by category", "msg-1");
    expect(again).toHaveLength(2);
    expect(again[1]!.__state__).toEqual(state);

    const thread = await (await t.api("GET", `${base()}/${threadId}`, undefined, tokens.acme)).json();
    expect(thread.messages.map((m: { role: string }) => m.role)).toEqual(["user", "assistant"]);
    expect(thread.messages[1].parts.some((p: { type: string }) => p.type === "chart")).toBe(true);
    expect(thread.title).toBe("revenue by category");

    // Another user of the same tenant, and the same external id in another tenant, see nothing.
    for (const other of [tokens.acme2!, tokens.globex!]) {
      expect((await t.api("GET", `${base()}/${threadId}`, undefined, other)).status).toBe(404);
      expect((await t.api("POST", `${base()}/${threadId}/messages`, { content: "orders" }, other)).status).toBe(404);
      const list = await (await t.api("GET", base(), undefined, other)).json();
      expect(list.data.some((x: { id: string }) => x.id === threadId)).toBe(false);
    }
    const mine = await (await t.api("GET", base(), undefined, tokens.acme)).json();
    expect(mine.data.some((x: { id: string }) => x.id === threadId)).toBe(true);

    expect((await t.api("DELETE", `${base()}/${threadId}`, undefined, tokens.acme)).status).toBe(204);
    expect((await t.api("GET", `${base()}/${threadId}`, undefined, tokens.acme)).status).toBe(404);
  });

  it("rejoins a running answer by messageId", async () => {
    const threadId = await newThread(tokens.acme!);
    const [a, b] = await Promise.all([
      ask(tokens.acme!, threadId, "orders by status over time", "same"),
      ask(tokens.acme!, threadId, "orders by status over time", "same"),
    ]);
    expect(a[a.length - 1]!.__state__).toBeDefined();
    expect(b[b.length - 1]!.__state__).toEqual(a[a.length - 1]!.__state__);
    const thread = await (await t.api("GET", `${base()}/${threadId}`, undefined, tokens.acme)).json();
    expect(thread.messages.filter((m: { role: string }) => m.role === "assistant")).toHaveLength(1);
  });

  it("refuses AI on the server when the session says allowAi: false", async () => {
    const res = await t.api("POST", base(), {}, tokens.noAi);
    expect(res.status).toBe(403);
    expect((await t.api("GET", base(), undefined, tokens.noAi)).status).toBe(403);
    const threadId = await newThread(tokens.acme!);
    expect((await t.api("POST", `${base()}/${threadId}/messages`, { content: "orders" }, tokens.noAi)).status).toBe(403);
  });

  it("gives a platform user the SQL of each query, and all tenants' rows", async () => {
    const threadId = await newThread(t.adminToken);
    const lines = await ask(t.adminToken, threadId, "how many orders");
    const queryPart = lines.find((l) => l.type === "query") as Line & { sql?: string };
    expect(queryPart.sql).toMatch(/SELECT/i);
    const table = lines.find((l) => l.type === "table") as Line & { rows: Record<string, number>[] };
    const acme = await ask(tokens.acme!, await newThread(tokens.acme!), "how many orders");
    const acmeTable = acme.find((l) => l.type === "table") as Line & { rows: Record<string, number>[] };
    expect(table.rows[0]!["sales.count"]).toBeGreaterThan(acmeTable.rows[0]!["sales.count"]!);
  });

  it("validates input at the edge", async () => {
    const threadId = await newThread(tokens.acme!);
    expect((await t.api("POST", `${base()}/${threadId}/messages`, { content: "" }, tokens.acme)).status).toBe(400);
    expect((await t.api("POST", `${base()}/${threadId}/messages`, { content: "x", messageId: "../../etc" }, tokens.acme)).status).toBe(400);
    expect((await t.api("POST", `${base()}/${threadId}/messages`, { content: "x", extra: 1 }, tokens.acme)).status).toBe(400);
    expect((await t.api("GET", `${base()}/not%20an%20id`, undefined, tokens.acme)).status).toBe(400);
  });
});

describe("chatThreadPolicies", () => {
  const views = ["sales", "customer_base"];
  it("allows everything without rules, and deny wins over allow", () => {
    expect(policyViews([], "create", views)).toEqual(views);
    expect(policyViews([{ actions: ["create"], effect: "deny", resourceType: "chatThread", resources: ["sales"] }], "create", views)).toEqual([
      "customer_base",
    ]);
    expect(
      policyViews(
        [
          { actions: ["create"], effect: "allow", resourceType: "chatThread", resources: ["*"] },
          { actions: ["create", "read"], effect: "deny", resourceType: "chatThread", resources: ["customer_base"] },
        ],
        "create",
        views,
      ),
    ).toEqual(["sales"]);
    expect(policyViews([{ actions: ["create"], effect: "allow", resourceType: "chatThread", resources: ["sales"] }], "create", views)).toEqual(["sales"]);
    expect(policyViews([{ actions: ["delete"], effect: "deny", resourceType: "chatThread", resources: ["*"] }], "create", views)).toEqual(views);
  });
});
