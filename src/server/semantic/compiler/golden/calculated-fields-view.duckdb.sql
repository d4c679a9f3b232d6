SELECT upper(coalesce("orders"."status", CAST($8 AS VARCHAR))) AS "sales.state",
  (CAST(count(CASE WHEN (("orders"."status" = CAST($9 AS VARCHAR))) THEN 1 END) AS DOUBLE PRECISION) / NULLIF(count(*), 0)) AS "sales.completed_share",
  (sum("orders"."amount") - coalesce(sum(CASE WHEN (("orders"."status" IN (CAST($10 AS VARCHAR), CAST($11 AS VARCHAR)))) THEN "orders"."amount" END), CAST($12 AS DOUBLE))) AS "sales.unshipped_revenue",
  round(CAST(sum(CASE WHEN (("orders"."amount" >= CAST($13 AS DOUBLE)) AND (NOT ("orders".amount >= 50))) THEN ("orders"."amount" * CAST($14 AS DOUBLE)) END) AS DOUBLE), CAST($15 AS INTEGER)) AS "sales.big_revenue"
FROM "main"."orders" AS "orders"
LEFT JOIN "main"."customers" AS "customers" ON "orders".customer_id = "customers".customer_id
WHERE ("orders"."tenant" = $1)
  AND ("customers"."tenant" = $2)
  AND ((("orders"."amount" >= CAST($5 AS DOUBLE)) AND ("orders"."status" = CAST($6 AS VARCHAR))) OR ("customers"."country" IS NULL)) = CAST($7 AS BOOLEAN)
GROUP BY 1
HAVING (CAST(count(CASE WHEN (("orders"."status" = CAST($3 AS VARCHAR))) THEN 1 END) AS DOUBLE PRECISION) / NULLIF(count(*), 0)) >= CAST($4 AS DOUBLE)
ORDER BY "sales.completed_share" DESC NULLS LAST
LIMIT 10000

-- params: ["acme-corp","acme-corp","completed",0.5,20,"completed",false,"none","completed","shipped","it's",0,20,1.2,2]
-- columns: ["sales.state","sales.completed_share","sales.unshipped_revenue","sales.big_revenue"]
-- annotation: {"measures":{"sales.completed_share":{"title":"Completed share","shortTitle":"Completed share","type":"number","format":"percent","measureType":"number"},"sales.unshipped_revenue":{"title":"Sales Unshipped Revenue","shortTitle":"Unshipped Revenue","type":"number","format":"currency","measureType":"number"},"sales.big_revenue":{"title":"Sales Big Revenue","shortTitle":"Big Revenue","type":"number","measureType":"number"}},"dimensions":{"sales.state":{"title":"Sales State","shortTitle":"State","type":"string"}},"timeDimensions":{},"periodComparisons":{}}
