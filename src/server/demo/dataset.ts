import { readFileSync, statSync, writeFileSync } from "node:fs";

/** Options of `generateDemoDataset`. */
export interface DemoDatasetOptions {
  /** DuckDB file to write (created when missing). */
  path: string;
  /** Number of orders; default 100 000 (10 million works, in SQL inside DuckDB). */
  rows?: number;
}

/**
 * The data set ends at this instant, whatever today is, so that every number on the demo
 * dashboards is the same on every machine and every day.
 */
export const DEMO_ANCHOR = "2025-06-30 23:59:59";
export const DEMO_TENANTS = ["acme-corp", "globex-inc"] as const;

/** The data set's tables as Postgres declares them (a copy of the rows on a server: the rollups' tests and bench). */
export const DEMO_TABLES_POSTGRES: Readonly<Record<"products" | "customers" | "orders", string>> = {
  products: "product_id bigint PRIMARY KEY, name text, category text, price numeric(12,2)",
  customers:
    "customer_id bigint PRIMARY KEY, tenant text, name text, country text, city text, latitude double precision, longitude double precision, signed_up_at timestamp",
  orders:
    "order_id bigint PRIMARY KEY, tenant text, customer_id bigint, product_id bigint, created_at timestamp, status text, quantity integer, amount numeric(12,2)",
};
const DATASET_VERSION = 1;

// [city, country, latitude, longitude]
const CITIES: [string, string, number, number][] = [
  ["New York", "US", 40.7128, -74.006],
  ["Los Angeles", "US", 34.0522, -118.2437],
  ["Chicago", "US", 41.8781, -87.6298],
  ["Houston", "US", 29.7604, -95.3698],
  ["San Francisco", "US", 37.7749, -122.4194],
  ["Seattle", "US", 47.6062, -122.3321],
  ["Boston", "US", 42.3601, -71.0589],
  ["Toronto", "CA", 43.6532, -79.3832],
  ["Vancouver", "CA", 49.2827, -123.1207],
  ["Mexico City", "MX", 19.4326, -99.1332],
  ["São Paulo", "BR", -23.5505, -46.6333],
  ["Buenos Aires", "AR", -34.6037, -58.3816],
  ["London", "GB", 51.5074, -0.1278],
  ["Manchester", "GB", 53.4808, -2.2426],
  ["Dublin", "IE", 53.3498, -6.2603],
  ["Paris", "FR", 48.8566, 2.3522],
  ["Lyon", "FR", 45.764, 4.8357],
  ["Berlin", "DE", 52.52, 13.405],
  ["Munich", "DE", 48.1351, 11.582],
  ["Hamburg", "DE", 53.5511, 9.9937],
  ["Amsterdam", "NL", 52.3676, 4.9041],
  ["Madrid", "ES", 40.4168, -3.7038],
  ["Barcelona", "ES", 41.3874, 2.1686],
  ["Lisbon", "PT", 38.7223, -9.1393],
  ["Rome", "IT", 41.9028, 12.4964],
  ["Milan", "IT", 45.4642, 9.19],
  ["Stockholm", "SE", 59.3293, 18.0686],
  ["Oslo", "NO", 59.9139, 10.7522],
  ["Warsaw", "PL", 52.2297, 21.0122],
  ["Vienna", "AT", 48.2082, 16.3738],
  ["Zurich", "CH", 47.3769, 8.5417],
  ["Tokyo", "JP", 35.6762, 139.6503],
  ["Osaka", "JP", 34.6937, 135.5023],
  ["Seoul", "KR", 37.5665, 126.978],
  ["Singapore", "SG", 1.3521, 103.8198],
  ["Mumbai", "IN", 19.076, 72.8777],
  ["Bangalore", "IN", 12.9716, 77.5946],
  ["Ho Chi Minh City", "VN", 10.8231, 106.6297],
  ["Sydney", "AU", -33.8688, 151.2093],
  ["Melbourne", "AU", -37.8136, 144.9631],
  ["Cape Town", "ZA", -33.9249, 18.4241],
  ["Dubai", "AE", 25.2048, 55.2708],
];

const CATEGORIES: [string, number, number][] = [
  // [category, min price, max price]
  ["Electronics", 40, 900],
  ["Home", 15, 300],
  ["Apparel", 10, 150],
  ["Sports", 12, 400],
  ["Books", 5, 60],
  ["Toys", 8, 120],
];
const PRODUCTS_PER_CATEGORY = 10;

function sqlString(s: string): string {
  return `'${s.replace(/'/g, "''")}'`;
}

/** A uniform number in [0, 1) from DuckDB's hash of (id, salt): deterministic, no state. */
const u = (id: string, salt: number) => `((hash(${id}, ${salt}) % 1000000)::DOUBLE / 1000000.0)`;

/**
 * Writes a deterministic e-commerce data set (customers, products, orders for two tenants
 * of different size and mix) into a DuckDB file. Everything is generated in SQL from
 * `range()` with hash-based pseudo-randomness. Does nothing when the file already holds the
 * data set for this row count. Returns whether it wrote anything.
 */
export async function generateDemoDataset(options: DemoDatasetOptions): Promise<{ created: boolean; rows: number }> {
  const rows = options.rows ?? 100_000;
  if (!Number.isInteger(rows) || rows < 1 || rows > 50_000_000) throw new RangeError("rows must be an integer from 1 to 50 000 000");
  // A warm start reads the stamp, not the file: DuckDB is neither loaded nor opened.
  if (stampMatches(options.path, rows)) return { created: false, rows };
  const { DuckDBInstance } = await import("@duckdb/node-api");
  const instance = await DuckDBInstance.create(options.path);
  const conn = await instance.connect();
  try {
    const existing = await conn
      .runAndReadAll(`SELECT rows, version FROM demo_meta`)
      .then((r) => r.getRowObjectsJS()[0] as { rows: bigint; version: number } | undefined)
      .catch(() => undefined);
    if (existing && Number(existing.rows) === rows && existing.version === DATASET_VERSION) {
      conn.closeSync();
      instance.closeSync();
      writeStamp(options.path, rows);
      return { created: false, rows };
    }

    const customers = Math.max(50, Math.round(rows / 20));
    const cityValues = CITIES.map(([c, k, la, lo], i) => `(${i}, ${sqlString(c)}, ${sqlString(k)}, ${la}, ${lo})`).join(", ");
    const categoryValues = CATEGORIES.map(([c, lo, hi], i) => `(${i}, ${sqlString(c)}, ${lo}, ${hi})`).join(", ");
    const n = CITIES.length;
    await conn.run("BEGIN");
    await conn.run("DROP TABLE IF EXISTS orders; DROP TABLE IF EXISTS customers; DROP TABLE IF EXISTS products; DROP TABLE IF EXISTS demo_meta;");
    await conn.run(`CREATE TEMP TABLE cities AS SELECT * FROM (VALUES ${cityValues}) AS t(city_idx, city, country, latitude, longitude)`);
    await conn.run(`CREATE TEMP TABLE categories AS SELECT * FROM (VALUES ${categoryValues}) AS t(cat_idx, category, min_price, max_price)`);
    await conn.run(`
      CREATE TABLE products AS
      SELECT p.i + 1 AS product_id,
             c.category || ' item ' || lpad(CAST(p.i % ${PRODUCTS_PER_CATEGORY} + 1 AS VARCHAR), 2, '0') AS name,
             c.category,
             round(c.min_price + ${u("p.i", 11)} * (c.max_price - c.min_price), 2) AS price
      FROM range(${CATEGORIES.length * PRODUCTS_PER_CATEGORY}) AS p(i)
      JOIN categories c ON c.cat_idx = p.i // ${PRODUCTS_PER_CATEGORY}`);
    // acme-corp: ~65% of customers, mostly Americas and Europe; globex-inc: Europe and Asia-Pacific.
    await conn.run(`
      CREATE TABLE customers AS
      WITH base AS (
        SELECT i + 1 AS customer_id,
               CASE WHEN ${u("i", 21)} < 0.65 THEN 'acme-corp' ELSE 'globex-inc' END AS tenant,
               ${u("i", 22)} AS r
        FROM range(${customers}) AS t(i)
      )
      SELECT b.customer_id, b.tenant,
             'Customer ' || b.customer_id AS name,
             ci.country, ci.city, ci.latitude, ci.longitude,
             TIMESTAMP '${DEMO_ANCHOR}' - INTERVAL (CAST(${u("b.customer_id", 23)} * 900 AS INTEGER)) DAY AS signed_up_at
      FROM base b
      JOIN cities ci ON ci.city_idx = CASE WHEN b.tenant = 'acme-corp'
        THEN CAST(floor(pow(b.r, 1.6) * 31) AS INTEGER)
        ELSE 12 + CAST(floor(pow(b.r, 0.8) * ${n - 12}) AS INTEGER) END`);
    await conn.run(`
      CREATE TABLE orders AS
      WITH base AS (
        SELECT i + 1 AS order_id,
               1 + CAST(floor(${u("i", 31)} * ${customers}) AS BIGINT) AS customer_id,
               ${u("i", 32)} AS r_product, ${u("i", 33)} AS r_status, ${u("i", 34)} AS r_qty,
               -- sqrt skews towards recent dates: the business grows
               sqrt(${u("i", 35)}) AS r_time
        FROM range(${rows}) AS t(i)
      )
      SELECT b.order_id, c.tenant, b.customer_id,
             -- acme buys more electronics, globex more apparel and books
             CASE WHEN c.tenant = 'acme-corp'
               THEN 1 + CAST(floor(pow(b.r_product, 1.5) * ${CATEGORIES.length * PRODUCTS_PER_CATEGORY}) AS INTEGER)
               ELSE 1 + CAST(floor(pow(b.r_product, 0.6) * ${CATEGORIES.length * PRODUCTS_PER_CATEGORY}) AS INTEGER) END AS product_id,
             TIMESTAMP '${DEMO_ANCHOR}' - to_seconds(CAST(floor((1 - b.r_time) * 730 * 86400) AS BIGINT)) AS created_at,
             CASE WHEN b.r_status < 0.70 THEN 'completed' WHEN b.r_status < 0.85 THEN 'shipped'
                  WHEN b.r_status < 0.93 THEN 'processing' WHEN b.r_status < 0.98 THEN 'cancelled' ELSE 'returned' END AS status,
             1 + CAST(floor(pow(b.r_qty, 3) * 5) AS INTEGER) AS quantity
      FROM base b JOIN customers c ON c.customer_id = b.customer_id`);
    await conn.run(`ALTER TABLE orders ADD COLUMN amount DECIMAL(12, 2)`);
    await conn.run(`UPDATE orders SET amount = CAST(orders.quantity * p.price AS DECIMAL(12, 2)) FROM products p WHERE p.product_id = orders.product_id`);
    await conn.run(`CREATE TABLE demo_meta AS SELECT ${rows}::BIGINT AS rows, ${DATASET_VERSION} AS version, TIMESTAMP '${DEMO_ANCHOR}' AS anchor`);
    await conn.run("COMMIT");
    await conn.run("CHECKPOINT");
    conn.closeSync();
    instance.closeSync();
    writeStamp(options.path, rows);
    return { created: true, rows };
  } catch (e) {
    await conn.run("ROLLBACK").catch(() => {});
    throw e;
  } finally {
    // Closing twice is harmless; the stamp is written only after the file is closed.
    conn.closeSync();
    instance.closeSync();
  }
}

/**
 * `<file>.stamp`: the data set's row count and version with the file's size and modification
 * time once it was written and closed. A file changed since (or gone) no longer matches, and
 * the next start opens it and checks demo_meta again.
 */
function stampOf(file: string, rows: number): string | null {
  try {
    const stat = statSync(file);
    return JSON.stringify({ rows, version: DATASET_VERSION, size: stat.size, mtimeMs: stat.mtimeMs });
  } catch {
    return null;
  }
}

function stampMatches(file: string, rows: number): boolean {
  const expected = stampOf(file, rows);
  if (expected === null) return false;
  try {
    return readFileSync(`${file}.stamp`, "utf8") === expected;
  } catch {
    return false;
  }
}

function writeStamp(file: string, rows: number): void {
  const stamp = stampOf(file, rows);
  if (stamp !== null) writeFileSync(`${file}.stamp`, stamp);
}
