import type { MetaSource } from "./app-api";

/** The view the formula editor's tests check formulas against: counts, a sum, text, a number and a time. */
export const SALES: MetaSource = {
  name: "sales",
  kind: "view",
  title: "Sales",
  measures: [
    { name: "sales.count", title: "Sales Orders", shortTitle: "Orders", type: "number", measureType: "count" },
    { name: "sales.revenue", title: "Sales Revenue", shortTitle: "Revenue", type: "number", measureType: "sum" },
    { name: "sales.customer_count", title: "Sales Customers", shortTitle: "Customers", type: "number", measureType: "count_distinct" },
  ],
  dimensions: [
    { name: "sales.status", title: "Sales Status", shortTitle: "Status", type: "string" },
    { name: "sales.amount", title: "Sales Amount", shortTitle: "Amount", type: "number" },
    { name: "sales.created_at", title: "Sales Order Date", shortTitle: "Order Date", type: "time" },
  ],
};
