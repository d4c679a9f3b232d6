SELECT "customers"."country" AS "sales.customers_country",
  date_trunc('month', (CAST("orders"."created_at" AS TIMESTAMPTZ) AT TIME ZONE CAST($5 AS TEXT))) AS "sales.created_at.month",
  sum("orders"."amount") AS "sales.revenue"
FROM "main"."orders" AS "orders"
LEFT JOIN "main"."customers" AS "customers" ON "orders".customer_id = "customers".customer_id
LEFT JOIN "main"."products" AS "products" ON "orders".product_id = "products".product_id
WHERE ("orders"."tenant" = $1)
  AND ("customers"."tenant" = $2)
  AND ("orders"."status" = $3 OR (CAST("products"."name" AS VARCHAR) ILIKE $4 ESCAPE '\'))
  AND ("orders"."created_at" >= CAST($6 AS TIMESTAMP) AND "orders"."created_at" < CAST($7 AS TIMESTAMP))
GROUP BY 1, 2
ORDER BY "sales.created_at.month" ASC NULLS LAST
LIMIT 100

-- params: ["acme-corp","acme-corp","completed","Wid%","Europe/Berlin","2022-12-31T23:00:00.000","2023-12-31T23:00:00.000"]
-- columns: ["sales.customers_country","sales.created_at.month","sales.revenue"]
-- annotation: {"measures":{"sales.revenue":{"title":"Sales Revenue","shortTitle":"Revenue","type":"number","format":"currency","measureType":"sum"}},"dimensions":{"sales.customers_country":{"title":"Sales Customers Country","shortTitle":"Country","type":"string"}},"timeDimensions":{"sales.created_at.month":{"title":"Sales Created At","shortTitle":"Created At","type":"time","granularity":"month"}},"periodComparisons":{}}
