SELECT "orders"."order_id" AS "sales.order_id",
  (CAST("orders"."created_at" AS TIMESTAMPTZ) AT TIME ZONE CAST($37 AS TEXT)) AS "sales.created_at"
FROM "main"."orders" AS "orders"
LEFT JOIN "main"."products" AS "products" ON "orders".product_id = "products".product_id
LEFT JOIN "main"."customers" AS "customers" ON "orders".customer_id = "customers".customer_id
WHERE "orders"."status" = $1
  AND "orders"."status" IN ($2, $3)
  AND ("orders"."status" <> $4 OR "orders"."status" IS NULL)
  AND ("orders"."status" NOT IN ($5, $6) OR "orders"."status" IS NULL)
  AND (CAST("products"."name" AS VARCHAR) ILIKE $7 ESCAPE '\' OR CAST("products"."name" AS VARCHAR) ILIKE $8 ESCAPE '\')
  AND ((CAST("products"."name" AS VARCHAR) NOT ILIKE $9 ESCAPE '\' AND CAST("products"."name" AS VARCHAR) NOT ILIKE $10 ESCAPE '\') OR "products"."name" IS NULL)
  AND (CAST("customers"."city" AS VARCHAR) ILIKE $11 ESCAPE '\')
  AND ((CAST("customers"."city" AS VARCHAR) NOT ILIKE $12 ESCAPE '\') OR "customers"."city" IS NULL)
  AND (CAST("customers"."city" AS VARCHAR) ILIKE $13 ESCAPE '\')
  AND ((CAST("customers"."city" AS VARCHAR) NOT ILIKE $14 ESCAPE '\' AND CAST("customers"."city" AS VARCHAR) NOT ILIKE $15 ESCAPE '\') OR "customers"."city" IS NULL)
  AND "orders"."amount" > CAST($16 AS NUMERIC)
  AND "orders"."amount" >= CAST($17 AS NUMERIC)
  AND "orders"."amount" < CAST($18 AS NUMERIC)
  AND "orders"."amount" <= CAST($19 AS NUMERIC)
  AND "orders"."amount" IN (CAST($20 AS NUMERIC), CAST($21 AS NUMERIC))
  AND ("orders".amount >= 50) = CAST($22 AS BOOLEAN)
  AND "orders"."status" IS NOT NULL
  AND "customers"."country" IS NULL
  AND "orders"."created_at" = CAST($23 AS TIMESTAMP)
  AND "orders"."created_at" IN (CAST($24 AS TIMESTAMP), CAST($25 AS TIMESTAMP))
  AND ("orders"."created_at" >= CAST($26 AS TIMESTAMP) AND "orders"."created_at" < CAST($27 AS TIMESTAMP))
  AND ("orders"."created_at" < CAST($28 AS TIMESTAMP) OR "orders"."created_at" >= CAST($29 AS TIMESTAMP))
  AND "orders"."created_at" < CAST($30 AS TIMESTAMP)
  AND "orders"."created_at" < CAST($31 AS TIMESTAMP)
  AND "orders"."created_at" >= CAST($32 AS TIMESTAMP)
  AND "orders"."created_at" >= CAST($33 AS TIMESTAMP)
  AND (("customers"."country" = $34 AND "orders"."order_id" >= CAST($35 AS NUMERIC)) OR "orders"."order_id" = CAST($36 AS NUMERIC))
GROUP BY 1, 2
ORDER BY "sales.order_id" ASC NULLS LAST
LIMIT 50 OFFSET 10

-- params: ["completed","a","b","x","x","y","%100\\%%","%a\\_b\\\\c%","%g%","%h%","New%","B%","%ich","%s","%n",40,7,7.5,100,1,2,true,"2024-03-30T22:30:00.000","2024-03-31T02:30:00.000","2024-10-27T06:30:00.000","2024-01-01T05:00:00.000","2024-03-01T05:00:00.000","2024-11-08T05:00:00.000","2024-11-15T05:00:00.000","2023-03-15T04:00:00.000","2023-03-15T14:00:00.001","2024-03-31T22:30:00.001","2024-03-31T04:00:00.000","DE",2,9,"America/New_York"]
-- columns: ["sales.order_id","sales.created_at"]
-- annotation: {"measures":{},"dimensions":{"sales.order_id":{"title":"Sales Order Id","shortTitle":"Order Id","type":"number"},"sales.created_at":{"title":"Sales Created At","shortTitle":"Created At","type":"time"}},"timeDimensions":{},"periodComparisons":{}}
