WITH "baseline_period" AS (
  SELECT "products"."category" AS "sales.products_category",
    CAST(EXTRACT(QUARTER FROM (CAST("orders"."created_at" AS TIMESTAMPTZ) AT TIME ZONE CAST($3 AS TEXT))) AS INTEGER) AS "sales.created_at.quarterOfYear",
    sum("orders"."amount") AS "sales.revenue",
    avg("orders"."amount") AS "sales.avg_amount"
  FROM "main"."orders" AS "orders"
  LEFT JOIN "main"."products" AS "products" ON "orders".product_id = "products".product_id
  WHERE ("orders"."tenant" = $1)
    AND ("orders"."status" <> $2 OR "orders"."status" IS NULL)
    AND ("orders"."created_at" >= CAST($4 AS TIMESTAMP) AND "orders"."created_at" < CAST($5 AS TIMESTAMP))
  GROUP BY 1, 2
),
"current_period" AS (
  SELECT "products"."category" AS "sales.products_category",
    CAST(EXTRACT(QUARTER FROM (CAST("orders"."created_at" AS TIMESTAMPTZ) AT TIME ZONE CAST($3 AS TEXT))) AS INTEGER) AS "sales.created_at.quarterOfYear",
    sum("orders"."amount") AS "sales.revenue",
    avg("orders"."amount") AS "sales.avg_amount"
  FROM "main"."orders" AS "orders"
  LEFT JOIN "main"."products" AS "products" ON "orders".product_id = "products".product_id
  WHERE ("orders"."tenant" = $1)
    AND ("orders"."status" <> $2 OR "orders"."status" IS NULL)
    AND ("orders"."created_at" >= CAST($6 AS TIMESTAMP) AND "orders"."created_at" < CAST($7 AS TIMESTAMP))
  GROUP BY 1, 2
),
"period_keys" AS (
  SELECT "sales.products_category", "sales.created_at.quarterOfYear" FROM "baseline_period"
  UNION
  SELECT "sales.products_category", "sales.created_at.quarterOfYear" FROM "current_period"
),
"compared" AS (
  SELECT "period_keys"."sales.products_category",
    "period_keys"."sales.created_at.quarterOfYear",
    COALESCE("baseline_period"."sales.revenue", 0) AS "sales.revenue.baseline",
    COALESCE("current_period"."sales.revenue", 0) AS "sales.revenue.current",
    COALESCE("current_period"."sales.revenue", 0) - COALESCE("baseline_period"."sales.revenue", 0) AS "sales.revenue.change",
    (COALESCE("current_period"."sales.revenue", 0) - COALESCE("baseline_period"."sales.revenue", 0)) / NULLIF(CAST(COALESCE("baseline_period"."sales.revenue", 0) AS DOUBLE PRECISION), 0) AS "sales.revenue.relativeChange",
    "baseline_period"."sales.avg_amount" AS "sales.avg_amount.baseline",
    "current_period"."sales.avg_amount" AS "sales.avg_amount.current",
    "current_period"."sales.avg_amount" - "baseline_period"."sales.avg_amount" AS "sales.avg_amount.change",
    ("current_period"."sales.avg_amount" - "baseline_period"."sales.avg_amount") / NULLIF(CAST("baseline_period"."sales.avg_amount" AS DOUBLE PRECISION), 0) AS "sales.avg_amount.relativeChange"
  FROM "period_keys"
  LEFT JOIN "baseline_period" ON "baseline_period"."sales.products_category" IS NOT DISTINCT FROM "period_keys"."sales.products_category" AND "baseline_period"."sales.created_at.quarterOfYear" IS NOT DISTINCT FROM "period_keys"."sales.created_at.quarterOfYear"
  LEFT JOIN "current_period" ON "current_period"."sales.products_category" IS NOT DISTINCT FROM "period_keys"."sales.products_category" AND "current_period"."sales.created_at.quarterOfYear" IS NOT DISTINCT FROM "period_keys"."sales.created_at.quarterOfYear"
)
SELECT "sales.products_category", "sales.created_at.quarterOfYear", "sales.revenue.baseline", "sales.revenue.current", "sales.revenue.change", "sales.revenue.relativeChange", "sales.avg_amount.baseline", "sales.avg_amount.current", "sales.avg_amount.change", "sales.avg_amount.relativeChange"
FROM "compared"
ORDER BY "sales.revenue.change" DESC NULLS LAST
LIMIT 20

-- params: ["acme-corp","cancelled","Europe/Berlin","2023-12-31T23:00:00.000","2024-03-31T22:00:00.000","2024-09-30T22:00:00.000","2024-12-31T23:00:00.000"]
-- columns: ["sales.products_category","sales.created_at.quarterOfYear","sales.revenue.baseline","sales.revenue.current","sales.revenue.change","sales.revenue.relativeChange","sales.avg_amount.baseline","sales.avg_amount.current","sales.avg_amount.change","sales.avg_amount.relativeChange"]
-- annotation: {"measures":{},"dimensions":{"sales.products_category":{"title":"Sales Products Category","shortTitle":"Category","type":"string"},"sales.created_at.quarterOfYear":{"title":"Sales Created At (quarter of year)","shortTitle":"Created At (quarter of year)","type":"number","timePart":"quarterOfYear"}},"timeDimensions":{},"periodComparisons":{},"compare":{"sales.revenue.baseline":{"title":"Sales Revenue (Q1 2024)","shortTitle":"Revenue (Q1 2024)","type":"number","format":"currency","measureType":"sum","measure":"sales.revenue","output":"baseline","ranges":{"baseline":{"from":"2024-01-01T00:00:00.000","to":"2024-04-01T00:00:00.000"},"current":{"from":"2024-10-01T00:00:00.000","to":"2025-01-01T00:00:00.000"}}},"sales.revenue.current":{"title":"Sales Revenue (Q4 2024)","shortTitle":"Revenue (Q4 2024)","type":"number","format":"currency","measureType":"sum","measure":"sales.revenue","output":"current","ranges":{"baseline":{"from":"2024-01-01T00:00:00.000","to":"2024-04-01T00:00:00.000"},"current":{"from":"2024-10-01T00:00:00.000","to":"2025-01-01T00:00:00.000"}}},"sales.revenue.change":{"title":"Sales Revenue (change)","shortTitle":"Revenue (change)","type":"number","format":"currency","measureType":"sum","measure":"sales.revenue","output":"change","ranges":{"baseline":{"from":"2024-01-01T00:00:00.000","to":"2024-04-01T00:00:00.000"},"current":{"from":"2024-10-01T00:00:00.000","to":"2025-01-01T00:00:00.000"}}},"sales.revenue.relativeChange":{"title":"Sales Revenue (% change)","shortTitle":"Revenue (% change)","type":"number","format":"percent","measureType":"sum","measure":"sales.revenue","output":"relativeChange","ranges":{"baseline":{"from":"2024-01-01T00:00:00.000","to":"2024-04-01T00:00:00.000"},"current":{"from":"2024-10-01T00:00:00.000","to":"2025-01-01T00:00:00.000"}}},"sales.avg_amount.baseline":{"title":"Sales Avg Amount (Q1 2024)","shortTitle":"Avg Amount (Q1 2024)","type":"number","measureType":"avg","measure":"sales.avg_amount","output":"baseline","ranges":{"baseline":{"from":"2024-01-01T00:00:00.000","to":"2024-04-01T00:00:00.000"},"current":{"from":"2024-10-01T00:00:00.000","to":"2025-01-01T00:00:00.000"}}},"sales.avg_amount.current":{"title":"Sales Avg Amount (Q4 2024)","shortTitle":"Avg Amount (Q4 2024)","type":"number","measureType":"avg","measure":"sales.avg_amount","output":"current","ranges":{"baseline":{"from":"2024-01-01T00:00:00.000","to":"2024-04-01T00:00:00.000"},"current":{"from":"2024-10-01T00:00:00.000","to":"2025-01-01T00:00:00.000"}}},"sales.avg_amount.change":{"title":"Sales Avg Amount (change)","shortTitle":"Avg Amount (change)","type":"number","measureType":"avg","measure":"sales.avg_amount","output":"change","ranges":{"baseline":{"from":"2024-01-01T00:00:00.000","to":"2024-04-01T00:00:00.000"},"current":{"from":"2024-10-01T00:00:00.000","to":"2025-01-01T00:00:00.000"}}},"sales.avg_amount.relativeChange":{"title":"Sales Avg Amount (% change)","shortTitle":"Avg Amount (% change)","type":"number","measureType":"avg","format":"percent","measure":"sales.avg_amount","output":"relativeChange","ranges":{"baseline":{"from":"2024-01-01T00:00:00.000","to":"2024-04-01T00:00:00.000"},"current":{"from":"2024-10-01T00:00:00.000","to":"2025-01-01T00:00:00.000"}}}}}
