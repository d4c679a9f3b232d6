SELECT CAST(EXTRACT(ISODOW FROM CASE WHEN CAST("orders"."created_at" AS TIMESTAMP) >= TIMESTAMP '2023-12-31 23:00:00.000' AND CAST("orders"."created_at" AS TIMESTAMP) < TIMESTAMP '2024-12-31 23:00:00.000' THEN make_timestamp(epoch_us(CAST("orders"."created_at" AS TIMESTAMP)) + CASE WHEN CAST("orders"."created_at" AS TIMESTAMP) < TIMESTAMP '2024-10-27 01:00:00.000' THEN CASE WHEN CAST("orders"."created_at" AS TIMESTAMP) < TIMESTAMP '2024-03-31 01:00:00.000' THEN 3600000000 ELSE 7200000000 END ELSE 3600000000 END) ELSE timezone(CAST($2 AS TEXT), CAST("orders"."created_at" AS TIMESTAMPTZ)) END) AS INTEGER) AS "sales.created_at.dayOfWeek",
  CAST(EXTRACT(HOUR FROM CASE WHEN CAST("orders"."created_at" AS TIMESTAMP) >= TIMESTAMP '2023-12-31 23:00:00.000' AND CAST("orders"."created_at" AS TIMESTAMP) < TIMESTAMP '2024-12-31 23:00:00.000' THEN make_timestamp(epoch_us(CAST("orders"."created_at" AS TIMESTAMP)) + CASE WHEN CAST("orders"."created_at" AS TIMESTAMP) < TIMESTAMP '2024-10-27 01:00:00.000' THEN CASE WHEN CAST("orders"."created_at" AS TIMESTAMP) < TIMESTAMP '2024-03-31 01:00:00.000' THEN 3600000000 ELSE 7200000000 END ELSE 3600000000 END) ELSE timezone(CAST($2 AS TEXT), CAST("orders"."created_at" AS TIMESTAMPTZ)) END) AS INTEGER) AS "sales.created_at.hourOfDay",
  count(*) AS "sales.count",
  sum("orders"."amount") AS "sales.revenue"
FROM "main"."orders" AS "orders"
WHERE ("orders"."tenant" = $1)
  AND ("orders"."created_at" >= CAST($3 AS TIMESTAMP) AND "orders"."created_at" < CAST($4 AS TIMESTAMP))
GROUP BY 1, 2
ORDER BY "sales.created_at.dayOfWeek" ASC NULLS LAST, "sales.created_at.hourOfDay" ASC NULLS LAST
LIMIT 10000

-- params: ["acme-corp","Europe/Berlin","2023-12-31T23:00:00.000","2024-12-31T23:00:00.000"]
-- columns: ["sales.created_at.dayOfWeek","sales.created_at.hourOfDay","sales.count","sales.revenue"]
-- annotation: {"measures":{"sales.count":{"title":"Sales Count","shortTitle":"Count","type":"number","measureType":"count"},"sales.revenue":{"title":"Sales Revenue","shortTitle":"Revenue","type":"number","format":"currency","measureType":"sum"}},"dimensions":{"sales.created_at.dayOfWeek":{"title":"Sales Created At (day of week)","shortTitle":"Created At (day of week)","type":"number","timePart":"dayOfWeek"},"sales.created_at.hourOfDay":{"title":"Sales Created At (hour of day)","shortTitle":"Created At (hour of day)","type":"number","timePart":"hourOfDay"}},"timeDimensions":{},"periodComparisons":{}}
