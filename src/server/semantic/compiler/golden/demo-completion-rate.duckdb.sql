SELECT "customers"."country" AS "sales.customers_country",
  CAST((count(CASE WHEN ("orders".status = 'completed') THEN 1 END)) AS DOUBLE PRECISION) / NULLIF((count(*)), 0) AS "sales.completion_rate",
  (sum("orders"."amount")) / NULLIF((count(*)), 0) AS "sales.average_order_value",
  CAST((count(CASE WHEN ("orders".status = 'completed') AND (("products"."category" = CAST($3 AS VARCHAR))) THEN 1 END)) AS DOUBLE PRECISION) / NULLIF((count(CASE WHEN (("products"."category" = CAST($3 AS VARCHAR))) THEN 1 END)), 0) AS "sales.books_completion"
FROM "orders" AS "orders"
LEFT JOIN "products" AS "products" ON "orders".product_id = "products".product_id
LEFT JOIN "customers" AS "customers" ON "orders".customer_id = "customers".customer_id
WHERE ("orders"."tenant" = $1)
  AND ("customers"."tenant" = $2)
GROUP BY 1
ORDER BY "sales.completion_rate" DESC NULLS LAST
LIMIT 10000

-- params: ["acme-corp","acme-corp","Books"]
