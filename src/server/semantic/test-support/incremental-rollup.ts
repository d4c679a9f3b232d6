import { expect } from "vitest";
import type { DataSource } from "../../datasources";
import { rollupColumns } from "../compiler/rollup-plan";
import type { DataModel } from "../data-model";
import { addToWallTime, truncateWallTime } from "../date-range";
import { buildRollupTable, timestampText } from "../rollup-build";

/**
 * An incremental build of the demo's `orders_daily` (partitions by month, an update window of
 * one): a copy of the newest order lands in the rebuilt window; a copy of an order months older
 * stays out until a full build; the partitions before the window are kept as they were.
 * `orders` names the source table; the copies are deleted at the end.
 */
export async function checkIncrementalBuild(dataSource: DataSource, model: DataModel, orders: string) {
  const rollup = model.rollups.get("orders_daily")!;
  const mysql = dataSource.dialect === "mysql";
  const p = (n: number) => (mysql ? "?" : `$${n}`);
  const quote = (table: string) =>
    table
      .split(".")
      .map((part) => (mysql ? `\`${part}\`` : `"${part}"`))
      .join(".");
  const bucket = rollupColumns.time(rollup);
  const revenue = rollupColumns.measure("revenue");
  const sum = async (sql: string, params: unknown[] = []) => Number((await dataSource.query(sql, params))[0]?.s ?? 0);
  const at = (text: unknown) => new Date(`${String(text).replace(" ", "T").replace(/Z$/, "")}Z`);

  const full = await buildRollupTable(dataSource, model, rollup, undefined, "full");
  expect(full.mode).toBe("full");
  const [newest] = await dataSource.query(`SELECT order_id AS id, created_at AS t FROM ${orders} ORDER BY created_at DESC, order_id DESC LIMIT 1`, []);
  const windowStart = timestampText(truncateWallTime(at(newest!.t), "month"));
  const monthsBefore = timestampText(addToWallTime(truncateWallTime(at(newest!.t), "month"), -3, "month"));
  const [older] = await dataSource.query(`SELECT order_id AS id, amount AS a FROM ${orders} WHERE created_at < ${p(1)} ORDER BY order_id LIMIT 1`, [
    monthsBefore,
  ]);
  const keptBefore = await sum(`SELECT count(*) AS s FROM ${quote(full.table)} WHERE ${bucket} < ${p(1)}`, [windowStart]);
  const copies = [Number(newest!.id), Number(older!.id)];
  await dataSource.query(
    `INSERT INTO ${orders} (order_id, tenant, customer_id, product_id, created_at, status, quantity, amount) SELECT order_id + 10000000, tenant, customer_id, product_id, created_at, status, quantity, amount FROM ${orders} WHERE order_id IN (${p(1)}, ${p(2)})`,
    copies,
  );
  try {
    const incremental = await buildRollupTable(dataSource, model, rollup, undefined, "auto");
    expect({ mode: incremental.mode, from: incremental.from }).toEqual({ mode: "incremental", from: windowStart });
    // The window holds the copy of the newest order: its revenue is the orders' own.
    const inWindow = await sum(`SELECT sum(${revenue}) AS s FROM ${quote(incremental.table)} WHERE ${bucket} >= ${p(1)}`, [windowStart]);
    expect(inWindow).toBeCloseTo(await sum(`SELECT sum(amount) AS s FROM ${orders} WHERE created_at >= ${p(1)}`, [windowStart]), 2);
    // Before the window nothing was aggregated again: the same rows, and the older copy not yet counted.
    expect(await sum(`SELECT count(*) AS s FROM ${quote(incremental.table)} WHERE ${bucket} < ${p(1)}`, [windowStart])).toBe(keptBefore);
    const total = await sum(`SELECT sum(amount) AS s FROM ${orders}`);
    expect(await sum(`SELECT sum(${revenue}) AS s FROM ${quote(incremental.table)}`)).toBeCloseTo(total - Number(older!.a), 2);
    // A full build counts it.
    const again = await buildRollupTable(dataSource, model, rollup, undefined, "full");
    expect(again.mode).toBe("full");
    expect(await sum(`SELECT sum(${revenue}) AS s FROM ${quote(again.table)}`)).toBeCloseTo(total, 2);
  } finally {
    await dataSource.query(`DELETE FROM ${orders} WHERE order_id > ${p(1)}`, [10_000_000]);
    await buildRollupTable(dataSource, model, rollup, undefined, "full");
  }
}
