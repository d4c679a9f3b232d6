import mysql from "mysql2/promise";
import pg from "pg";
import { createDuckDbDataSource } from "../../datasources/duckdb-data-source";
import { createMySqlDataSource } from "../../datasources/mysql-data-source";
import { createPostgresDataSource } from "../../datasources/postgres-data-source";
import type { DataSource } from "../../datasources/data-source";
import { loadDataModel, type DataModel } from "../data-model";
import type { SqlDialect } from "../compile-query";
import type { SecurityContext } from "../security-context";

/** A small shop whose rows sit around the 2024 DST changes of Europe/Berlin. */
export function shopModelYaml(schema: string): string {
  return `
cubes:
  - name: orders
    sql_table: ${schema}.orders
    joins:
      - name: customers
        relationship: many_to_one
        sql: "{CUBE}.customer_id = {customers}.customer_id"
      - name: products
        relationship: many_to_one
        sql: "{CUBE}.product_id = {products}.product_id"
    dimensions:
      - { name: order_id, sql: order_id, type: number, primary_key: true }
      - { name: status, sql: status, type: string }
      - { name: created_at, sql: created_at, type: time }
      - { name: amount, sql: amount, type: number }
      - { name: tenant, sql: tenant, type: string }
      - { name: is_big, sql: "{CUBE}.amount >= 50", type: boolean }
    measures:
      - { name: count, type: count }
      - { name: revenue, sql: amount, type: sum, format: currency }
      - { name: avg_amount, sql: amount, type: avg }
      - { name: max_amount, sql: amount, type: max }
      - { name: min_amount, sql: amount, type: min }
      - { name: unique_customers, sql: customer_id, type: count_distinct }
      - name: completed_count
        type: count
        filters: [{ sql: "{CUBE}.status = 'completed'" }]
      - { name: average_order_value, sql: "{revenue} / NULLIF({count}, 0)", type: number, format: currency }
    access_policy:
      - group: "*"
        row_level:
          filters: [{ member: tenant, operator: equals, values: ["{ securityContext.embedTenant }"] }]
      - role: admin
  - name: customers
    sql_table: ${schema}.customers
    dimensions:
      - { name: customer_id, sql: customer_id, type: number, primary_key: true }
      - { name: country, sql: country, type: string }
      - { name: city, sql: city, type: string }
      - { name: tenant, sql: tenant, type: string }
    measures:
      - { name: count, type: count }
    access_policy:
      - group: "*"
        row_level:
          filters: [{ member: tenant, operator: equals, values: ["{ securityContext.embedTenant }"] }]
      - role: admin
  - name: products
    sql_table: ${schema}.products
    dimensions:
      - { name: product_id, sql: product_id, type: number, primary_key: true }
      - { name: name, sql: name, type: string }
      - { name: category, sql: category, type: string }
    measures:
      - { name: count, type: count }
views:
  - name: sales
    cubes:
      - join_path: orders
        includes: "*"
        excludes: [tenant]
      - join_path: orders.customers
        prefix: true
        includes: [country, city, count]
      - join_path: orders.products
        prefix: true
        includes: [category, name]
`;
}

export const shopSeedSql = (schema: string): string[] => [
  `CREATE TABLE ${schema}.customers (customer_id INTEGER, tenant TEXT, country TEXT, city TEXT)`,
  `INSERT INTO ${schema}.customers VALUES (1,'acme-corp','DE','Berlin'),(2,'acme-corp','US','New York'),(3,'globex-inc','FR','Paris'),(4,'globex-inc','DE','Munich')`,
  `CREATE TABLE ${schema}.products (product_id INTEGER, name TEXT, category TEXT)`,
  `INSERT INTO ${schema}.products VALUES (1,'Widget','tools'),(2,'Gadget','toys'),(3,'100% Cotton_Shirt','apparel')`,
  `CREATE TABLE ${schema}.orders (order_id INTEGER, tenant TEXT, customer_id INTEGER, product_id INTEGER, status TEXT, amount DOUBLE PRECISION, created_at TIMESTAMP)`,
  `INSERT INTO ${schema}.orders VALUES
    (1,'acme-corp',1,1,'completed',10,'2024-03-30 22:30:00'),
    (2,'acme-corp',1,2,'completed',20,'2024-03-30 23:30:00'),
    (3,'acme-corp',2,3,'shipped',30,'2024-03-31 22:30:00'),
    (4,'acme-corp',2,1,'completed',40,'2024-01-15 12:00:00'),
    (5,'acme-corp',1,1,'completed',7,'2023-03-15 10:00:00'),
    (6,'globex-inc',3,2,'completed',100,'2024-02-10 09:00:00'),
    (7,'globex-inc',4,3,'cancelled',50,'2024-03-01 08:00:00'),
    (8,'globex-inc',3,1,'completed',30,'2023-01-20 16:00:00'),
    (9,'acme-corp',2,2,'completed',5,'2024-10-27 00:30:00'),
    (10,'acme-corp',2,2,NULL,6,'2024-10-27 01:30:00')`,
];

export const acmeViewer: SecurityContext = { embedTenant: "acme-corp", groups: [], userAttributes: {}, role: "viewer" };
export const globexViewer: SecurityContext = { embedTenant: "globex-inc", groups: [], userAttributes: {}, role: "viewer" };
export const adminViewer: SecurityContext = { embedTenant: null, groups: [], userAttributes: {}, role: "admin" };
export const noTenantViewer: SecurityContext = { embedTenant: null, groups: [], userAttributes: {}, role: "viewer" };

export interface ShopEngine {
  name: SqlDialect;
  dataSource: DataSource;
  model: DataModel;
  cleanup(): Promise<void>;
}

export async function createDuckDbShop(): Promise<ShopEngine> {
  const dataSource = createDuckDbDataSource({ path: ":memory:", poolSize: 2 });
  for (const stmt of shopSeedSql("main")) await dataSource.query(stmt, []);
  return { name: "duckdb", dataSource, model: loadDataModel([{ path: "shop.yml", content: shopModelYaml("main") }]), cleanup: () => dataSource.close() };
}

export const postgresUrl = process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/test";

export function postgresOptions() {
  const url = new URL(postgresUrl);
  return {
    host: url.hostname,
    port: Number(url.port || 5432),
    database: decodeURIComponent(url.pathname.slice(1)),
    user: decodeURIComponent(url.username),
    password: url.password ? decodeURIComponent(url.password) : undefined,
  };
}

/** Whether the Postgres server answers; with DATABASE_URL set the tests must run regardless. */
export async function postgresReachable(): Promise<boolean> {
  if (process.env.DATABASE_URL) return true;
  const client = new pg.Client({ connectionString: postgresUrl, connectionTimeoutMillis: 2000 });
  client.on("error", () => {});
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

export async function createPostgresShop(): Promise<ShopEngine> {
  const schema = `sem_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: postgresUrl });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  for (const stmt of shopSeedSql(schema)) await admin.query(stmt);
  const dataSource = createPostgresDataSource({ ...postgresOptions(), poolSize: 2 });
  return {
    name: "postgres",
    dataSource,
    model: loadDataModel([{ path: "shop.yml", content: shopModelYaml(schema) }]),
    async cleanup() {
      await dataSource.close();
      await admin.query(`DROP SCHEMA ${schema} CASCADE`);
      await admin.end();
    },
  };
}

/** The MySQL / MariaDB server of the tests; its database is created when missing. */
export const mysqlUrl = process.env.MYSQL_URL ?? "mysql://root@127.0.0.1:3306/svc_test_mysql";

export function mysqlOptions() {
  const url = new URL(mysqlUrl);
  return {
    host: url.hostname,
    port: Number(url.port || 3306),
    database: decodeURIComponent(url.pathname.slice(1)),
    user: decodeURIComponent(url.username),
    password: url.password ? decodeURIComponent(url.password) : undefined,
  };
}

/** A connection to the test server without a database (to create one). */
async function mysqlAdmin() {
  const { database: _database, ...server } = mysqlOptions();
  return mysql.createConnection({ ...server, connectTimeout: 2000 });
}

/**
 * Whether the MySQL / MariaDB server answers (and the test database exists, created here when
 * missing); with MYSQL_URL set the tests must run regardless.
 */
export async function mysqlReachable(): Promise<boolean> {
  let admin: mysql.Connection | undefined;
  try {
    admin = await mysqlAdmin();
    await admin.query(`CREATE DATABASE IF NOT EXISTS ${mysql.escapeId(mysqlOptions().database)}`);
    return true;
  } catch {
    return !!process.env.MYSQL_URL;
  } finally {
    await admin?.end().catch(() => {});
  }
}

/** The shop in a database of its own on the MySQL / MariaDB server (MySQL's schemas are databases), dropped on cleanup. */
export async function createMySqlShop(): Promise<ShopEngine> {
  const schema = `svc_test_mysql_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = await mysqlAdmin();
  await admin.query(`CREATE DATABASE ${schema}`);
  // DATETIME is MySQL's naive timestamp (its TIMESTAMP is an instant with a range ending in 2038).
  for (const stmt of shopSeedSql(schema)) await admin.query(stmt.replace("created_at TIMESTAMP", "created_at DATETIME(6)"));
  const dataSource = createMySqlDataSource({ ...mysqlOptions(), poolSize: 2 });
  return {
    name: "mysql",
    dataSource,
    model: loadDataModel([{ path: "shop.yml", content: shopModelYaml(schema) }]),
    async cleanup() {
      await dataSource.close();
      await admin.query(`DROP DATABASE ${schema}`);
      await admin.end();
    },
  };
}
