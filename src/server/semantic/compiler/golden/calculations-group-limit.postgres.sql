WITH "q" AS (
  SELECT "products"."category" AS "sales.products_category",
    "products"."name" AS "sales.products_name",
    date_trunc('month', CAST("orders"."created_at" AS TIMESTAMP)) AS "sales.created_at.month",
    count(*) AS "sales.count",
    sum("orders"."amount") AS "sales.revenue"
  FROM "main"."orders" AS "orders"
  LEFT JOIN "main"."products" AS "products" ON "orders".product_id = "products".product_id
  WHERE ("orders"."tenant" = $1)
    AND ("orders"."created_at" >= CAST($2 AS TIMESTAMP) AND "orders"."created_at" < CAST($3 AS TIMESTAMP))
  GROUP BY 1, 2, 3
),
"time_grid" AS (
  SELECT generate_series(CAST($4 AS TIMESTAMP), CAST($5 AS TIMESTAMP), INTERVAL '1 month') AS "sales.created_at.month"
),
"dimension_values" AS (
  SELECT DISTINCT "sales.products_category", "sales.products_name" FROM "q"
),
"grid" AS (
  SELECT * FROM "time_grid" CROSS JOIN "dimension_values"
),
"filled" AS (
  SELECT "grid"."sales.products_category", "grid"."sales.products_name", "grid"."sales.created_at.month", COALESCE("q"."sales.count", 0) AS "sales.count", COALESCE("q"."sales.revenue", 0) AS "sales.revenue"
  FROM "grid" LEFT JOIN "q" ON "q"."sales.created_at.month" IS NOT DISTINCT FROM "grid"."sales.created_at.month" AND "q"."sales.products_category" IS NOT DISTINCT FROM "grid"."sales.products_category" AND "q"."sales.products_name" IS NOT DISTINCT FROM "grid"."sales.products_name"
),
"calculated" AS (
  SELECT "filled".*,
    CAST("sales.revenue" AS DOUBLE PRECISION) / NULLIF(sum(CAST("sales.revenue" AS DOUBLE PRECISION)) OVER (), 0) AS "sales.revenue.percentOfTotal",
    CAST("sales.revenue" AS DOUBLE PRECISION) / NULLIF(sum(CAST("sales.revenue" AS DOUBLE PRECISION)) OVER (PARTITION BY "sales.products_category"), 0) AS "sales.revenue_share_in_category",
    CAST(sum("sales.revenue") OVER (ORDER BY "sales.created_at.month" ASC NULLS LAST, "sales.products_category" ASC NULLS LAST, "sales.products_name" ASC NULLS LAST ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS DOUBLE PRECISION) AS "sales.revenue.runningTotal",
    CAST(rank() OVER (PARTITION BY "sales.created_at.month" ORDER BY "sales.count" ASC NULLS LAST) AS INTEGER) AS "sales.count.rank",
    row_number() OVER (PARTITION BY "sales.products_category" ORDER BY "sales.count" DESC NULLS LAST, "sales.products_name" ASC NULLS LAST, "sales.created_at.month" ASC NULLS LAST) AS "group_row"
  FROM "filled"
)
SELECT "sales.products_category", "sales.products_name", "sales.created_at.month", "sales.count", "sales.revenue", "sales.revenue.percentOfTotal", "sales.revenue_share_in_category", "sales.revenue.runningTotal", "sales.count.rank"
FROM "calculated"
WHERE "group_row" <= 2
ORDER BY "sales.revenue_share_in_category" DESC NULLS LAST
LIMIT 10000

-- params: ["acme-corp","2024-01-01T00:00:00.000","2025-01-01T00:00:00.000","2024-01-01T00:00:00.000","2024-12-01T00:00:00.000"]
-- columns: ["sales.products_category","sales.products_name","sales.created_at.month","sales.count","sales.revenue","sales.revenue.percentOfTotal","sales.revenue_share_in_category","sales.revenue.runningTotal","sales.count.rank"]
-- annotation: {"measures":{"sales.count":{"title":"Sales Count","shortTitle":"Count","type":"number","measureType":"count"},"sales.revenue":{"title":"Sales Revenue","shortTitle":"Revenue","type":"number","format":"currency","measureType":"sum"}},"dimensions":{"sales.products_category":{"title":"Sales Products Category","shortTitle":"Category","type":"string"},"sales.products_name":{"title":"Sales Products Name","shortTitle":"Name","type":"string"}},"timeDimensions":{"sales.created_at.month":{"title":"Sales Created At","shortTitle":"Created At","type":"time","granularity":"month"}},"periodComparisons":{},"calculations":{"sales.revenue.percentOfTotal":{"title":"Sales Revenue (% of total)","shortTitle":"Revenue (% of total)","type":"number","format":"percent","measure":"sales.revenue","calculation":"percentOfTotal","within":[]},"sales.revenue_share_in_category":{"title":"Sales Revenue (% of total within sales.products_category)","shortTitle":"Revenue (% of total within sales.products_category)","type":"number","format":"percent","measure":"sales.revenue","calculation":"percentOfTotal","within":["sales.products_category"]},"sales.revenue.runningTotal":{"title":"Sales Revenue (running total)","shortTitle":"Revenue (running total)","type":"number","format":"currency","measureType":"sum","measure":"sales.revenue","calculation":"runningTotal","within":[]},"sales.count.rank":{"title":"Sales Count (rank within sales.created_at.month)","shortTitle":"Count (rank within sales.created_at.month)","type":"number","measure":"sales.count","calculation":"rank","within":["sales.created_at.month"]}}}
