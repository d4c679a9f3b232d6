import { loadDataModel, type DataModel } from "../data-model";
import { demoModelFiles } from "../../demo/seed";

/** Rollups over the demo model's orders: a small one by day, and one that keeps the customers (for counting them). */
export const demoRollupsYaml = `rollups:
  - name: orders_daily
    cube: orders
    measures: [count, revenue, units, average_order_value, completed_count, completion_rate]
    dimensions: [status, tenant, customers.country, customers.tenant, products.category]
    time_dimension: created_at
    granularity: day
    partition_granularity: month
    refresh: { every: "0 3 * * *" }
  - name: orders_customers_monthly
    cube: orders
    measures: [count, revenue, customer_count]
    dimensions: [tenant, customers.tenant, customers.country]
    time_dimension: created_at
    granularity: month
`;

/** The demo model with `demoRollupsYaml`; `schema` qualifies its tables (a Postgres test schema). */
export function demoModelWithRollups(schema?: string): DataModel {
  const files = demoModelFiles().map((f) => (schema ? { ...f, content: f.content.replace(/sql_table: (\w+)/g, `sql_table: ${schema}.$1`) } : f));
  return loadDataModel([...files, { path: "rollups.yml", content: demoRollupsYaml }]);
}
