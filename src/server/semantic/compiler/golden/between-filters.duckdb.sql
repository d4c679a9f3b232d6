SELECT "orders"."status" AS "sales.status",
  sum("orders"."amount") AS "sales.revenue"
FROM "main"."orders" AS "orders"
WHERE ("orders"."tenant" = $1)
  AND "orders"."amount" BETWEEN CAST($2 AS DOUBLE) AND CAST($3 AS DOUBLE)
  AND ("orders"."order_id" NOT BETWEEN CAST($4 AS DOUBLE) AND CAST($5 AS DOUBLE) OR "orders"."order_id" IS NULL)
GROUP BY 1
HAVING sum("orders"."amount") BETWEEN CAST($6 AS DOUBLE) AND CAST($7 AS DOUBLE)
  AND (count(*) NOT BETWEEN CAST($8 AS DOUBLE) AND CAST($9 AS DOUBLE) OR count(*) IS NULL)
  AND avg("orders"."amount") = CAST($10 AS DOUBLE)
  AND (max("orders"."amount") <> CAST($11 AS DOUBLE) OR max("orders"."amount") IS NULL)
ORDER BY "sales.revenue" DESC NULLS LAST
LIMIT 10000

-- params: ["acme-corp",5,30,3,4,10,100,2,2,10,11]
-- columns: ["sales.status","sales.revenue"]
-- annotation: {"measures":{"sales.revenue":{"title":"Sales Revenue","shortTitle":"Revenue","type":"number","format":"currency","measureType":"sum"}},"dimensions":{"sales.status":{"title":"Sales Status","shortTitle":"Status","type":"string"}},"timeDimensions":{},"periodComparisons":{}}
