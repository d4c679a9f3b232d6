SELECT "orders"."status" AS "sales.status",
  sum("orders"."amount") AS "sales.revenue"
FROM "main"."orders" AS "orders"
WHERE ("orders"."tenant" = $1)
  AND "orders"."amount" BETWEEN CAST($2 AS NUMERIC) AND CAST($3 AS NUMERIC)
  AND ("orders"."order_id" NOT BETWEEN CAST($4 AS NUMERIC) AND CAST($5 AS NUMERIC) OR "orders"."order_id" IS NULL)
GROUP BY 1
HAVING sum("orders"."amount") BETWEEN CAST($6 AS NUMERIC) AND CAST($7 AS NUMERIC)
  AND (count(*) NOT BETWEEN CAST($8 AS NUMERIC) AND CAST($9 AS NUMERIC) OR count(*) IS NULL)
  AND avg("orders"."amount") = CAST($10 AS NUMERIC)
  AND (max("orders"."amount") <> CAST($11 AS NUMERIC) OR max("orders"."amount") IS NULL)
ORDER BY "sales.revenue" DESC NULLS LAST
LIMIT 10000

-- params: ["acme-corp",5,30,3,4,10,100,2,2,10,11]
-- columns: ["sales.status","sales.revenue"]
-- annotation: {"measures":{"sales.revenue":{"title":"Sales Revenue","shortTitle":"Revenue","type":"number","format":"currency","measureType":"sum"}},"dimensions":{"sales.status":{"title":"Sales Status","shortTitle":"Status","type":"string"}},"timeDimensions":{},"periodComparisons":{}}
