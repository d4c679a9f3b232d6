SELECT "orders_daily"."d_customers__country" AS "sales.customers_country",
  date_trunc('month', CAST("orders_daily"."t_day" AS TIMESTAMP)) AS "sales.created_at.month",
  sum("orders_daily"."m_revenue") AS "sales.revenue",
  COALESCE(SUM("orders_daily".m_count), 0) AS "sales.count",
  (sum("orders_daily"."m_revenue")) / NULLIF((COALESCE(SUM("orders_daily".m_count), 0)), 0) AS "sales.average_order_value"
FROM "svc_rollups"."orders_daily_v1" AS "orders_daily"
WHERE ("orders_daily"."d_orders__tenant" = $1)
  AND ("orders_daily"."d_customers__tenant" = $2)
  AND "orders_daily"."d_orders__status" IN ($3, $4)
  AND ("orders_daily"."t_day" >= CAST($6 AS TIMESTAMP) AND "orders_daily"."t_day" < CAST($7 AS TIMESTAMP))
GROUP BY 1, 2
HAVING sum("orders_daily"."m_revenue") > CAST($5 AS NUMERIC)
ORDER BY "sales.revenue" DESC NULLS LAST
LIMIT 50

-- params: ["acme-corp","acme-corp","completed","shipped",1000,"2025-01-01T00:00:00.000","2025-07-01T00:00:00.000"]
-- rollup: orders_daily
