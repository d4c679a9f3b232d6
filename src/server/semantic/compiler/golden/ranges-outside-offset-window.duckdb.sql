SELECT timezone(CAST($1 AS TEXT), CAST("orders"."created_at" AS TIMESTAMPTZ)) AS "sales.created_at",
  date_trunc('day', timezone(CAST($1 AS TEXT), CAST("orders"."created_at" AS TIMESTAMPTZ))) AS "sales.created_at.day",
  date_trunc('year', timezone(CAST($1 AS TEXT), CAST("orders"."created_at" AS TIMESTAMPTZ))) AS "sales.created_at.year",
  count(*) AS "sales.count"
FROM "main"."orders" AS "orders"
WHERE ("orders"."created_at" >= CAST($2 AS TIMESTAMP) AND "orders"."created_at" < CAST($3 AS TIMESTAMP))
  AND ("orders"."created_at" >= CAST($4 AS TIMESTAMP) AND "orders"."created_at" < CAST($5 AS TIMESTAMP))
GROUP BY 1, 2, 3
ORDER BY "sales.created_at.day" ASC NULLS LAST
LIMIT 10000

-- params: ["Europe/Berlin","1989-12-31T23:00:00.000","1990-12-31T23:00:00.000","2039-05-31T22:00:00.000","2041-01-01T23:00:00.000"]
-- columns: ["sales.created_at","sales.created_at.day","sales.created_at.year","sales.count"]
-- annotation: {"measures":{"sales.count":{"title":"Sales Count","shortTitle":"Count","type":"number","measureType":"count"}},"dimensions":{"sales.created_at":{"title":"Sales Created At","shortTitle":"Created At","type":"time"}},"timeDimensions":{"sales.created_at.day":{"title":"Sales Created At","shortTitle":"Created At","type":"time","granularity":"day"},"sales.created_at.year":{"title":"Sales Created At","shortTitle":"Created At","type":"time","granularity":"year"}},"periodComparisons":{}}
