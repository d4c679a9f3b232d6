SELECT "orders"."status" AS "d_orders__status",
  "orders"."tenant" AS "d_orders__tenant",
  "customers"."country" AS "d_customers__country",
  "customers"."tenant" AS "d_customers__tenant",
  "products"."category" AS "d_products__category",
  date_trunc('day', CAST("orders"."created_at" AS TIMESTAMP)) AS "t_day",
  count(*) AS "m_count",
  sum("orders"."amount") AS "m_revenue",
  sum("orders"."quantity") AS "m_units",
  count(CASE WHEN ("orders".status = 'completed') THEN 1 END) AS "m_completed_count"
FROM "orders" AS "orders"
LEFT JOIN "customers" AS "customers" ON "orders".customer_id = "customers".customer_id
LEFT JOIN "products" AS "products" ON "orders".product_id = "products".product_id
WHERE "orders"."created_at" >= TIMESTAMP '2025-05-31 00:00:00'
GROUP BY 1, 2, 3, 4, 5, 6
