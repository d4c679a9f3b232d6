WITH "q" AS (
  SELECT date_trunc('day', CAST("orders"."created_at" AS TIMESTAMP)) AS "sales.created_at.day",
    count(*) AS "sales.count"
  FROM "main"."orders" AS "orders"
  GROUP BY 1
),
"time_grid" AS (
  SELECT "series"."bucket" AS "sales.created_at.day" FROM generate_series((SELECT min("sales.created_at.day") FROM "q"), (SELECT max("sales.created_at.day") FROM "q"), INTERVAL '1 day') AS "series"("bucket")
),
"grid" AS (
  SELECT * FROM "time_grid"
),
"filled" AS (
  SELECT "grid"."sales.created_at.day", COALESCE("q"."sales.count", 0) AS "sales.count"
  FROM "grid" LEFT JOIN "q" ON "q"."sales.created_at.day" IS NOT DISTINCT FROM "grid"."sales.created_at.day"
)
SELECT "base".*
FROM "filled" AS "base"
ORDER BY "base"."sales.created_at.day" ASC NULLS LAST
LIMIT 10000

-- params: []
-- columns: ["sales.created_at.day","sales.count"]
-- annotation: {"measures":{"sales.count":{"title":"Sales Count","shortTitle":"Count","type":"number","measureType":"count"}},"dimensions":{},"timeDimensions":{"sales.created_at.day":{"title":"Sales Created At","shortTitle":"Created At","type":"time","granularity":"day"}},"periodComparisons":{}}
