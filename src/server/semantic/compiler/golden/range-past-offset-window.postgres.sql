SELECT date_trunc('month', (CAST("deals"."closed_at" AS TIMESTAMPTZ) AT TIME ZONE CAST($1 AS TEXT))) AS "deals.closed_at.month",
  count(*) AS "deals.count"
FROM "crm"."deals" AS "deals"
WHERE ("deals"."closed_at" >= CAST($2 AS TIMESTAMP) AND "deals"."closed_at" < CAST($3 AS TIMESTAMP))
GROUP BY 1
ORDER BY "deals.closed_at.month" ASC NULLS LAST
LIMIT 10000

-- params: ["Europe/Berlin","2039-05-31T22:00:00.000","2041-01-01T23:00:00.000"]
-- columns: ["deals.closed_at.month","deals.count"]
-- annotation: {"measures":{"deals.count":{"title":"Deals Count","shortTitle":"Count","type":"number","measureType":"count"}},"dimensions":{},"timeDimensions":{"deals.closed_at.month":{"title":"Deals Closed At","shortTitle":"Closed At","type":"time","granularity":"month"}},"periodComparisons":{}}
