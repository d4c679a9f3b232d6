/**
 * Test support for the builtin engine's steps: the demo model's views as the query engine
 * describes them (`meta`), indexed with a fixed set of the demo data's values, so each step's
 * table reads like the questions a viewer of the demo asks.
 */
import { createDuckDbDataSource } from "../../datasources/duckdb-data-source";
import { demoModelFiles } from "../../demo/seed";
import { loadDataModel } from "../../semantic/data-model";
import { createQueryEngine } from "../../semantic/query-engine";
import { indexView, type ValueDoc, type ViewIndex } from "./view-index";

const VALUES: Record<string, Record<string, string[]>> = {
  sales: {
    "sales.status": ["completed", "shipped", "processing", "cancelled", "returned"],
    "sales.customers_country": ["US", "DE", "FR", "ES", "GB"],
    "sales.customers_city": ["New York", "Berlin", "Paris", "Madrid", "London"],
    "sales.products_category": ["Electronics", "Home", "Apparel", "Sports", "Books", "Toys"],
    "sales.products_name": ["Electronics item 01", "Books item 02"],
  },
  customer_base: {
    "customer_base.country": ["US", "DE", "FR", "ES", "GB"],
    "customer_base.city": ["New York", "Berlin", "Paris", "Madrid", "London"],
  },
};

/** The demo model's views (as an admin sees them), indexed with a few of the demo data's values. */
export function demoViews(): ViewIndex[] {
  const model = loadDataModel(demoModelFiles());
  // The engine only describes the model here: its data source is never queried.
  const engine = createQueryEngine({ model, dataSource: createDuckDbDataSource({ path: ":memory:" }) });
  const sources = engine.meta({ embedTenant: null, groups: [], userAttributes: {}, role: "admin" }).sources;
  return sources.map((source) => {
    const values: ValueDoc[] = Object.entries(VALUES[source.name] ?? {}).flatMap(([member, list]) => list.map((value) => ({ member, value })));
    return indexView(source, values);
  });
}

/** The day after the demo data's last order (Jun 30, 2025): relative dates count from it. */
export const DEMO_REFERENCE = new Date("2025-07-01T00:00:00Z");
