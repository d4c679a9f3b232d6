SELECT (upper(("accounts"."name")) || ' #' || CAST("accounts".id AS VARCHAR)) AS "accounts.label",
  CASE WHEN CAST("accounts"."signed_up" AS TIMESTAMP) >= TIMESTAMP '2000-01-01 00:00:00.000' AND CAST("accounts"."signed_up" AS TIMESTAMP) < TIMESTAMP '2040-01-01 00:00:00.000' THEN make_timestamp(epoch_us(CAST("accounts"."signed_up" AS TIMESTAMP)) + 20700000000) ELSE timezone(CAST($7 AS TEXT), CAST("accounts"."signed_up" AS TIMESTAMPTZ)) END AS "accounts.signed_up_at",
  "regions"."code" AS "regions.code",
  ("deals".closed_at IS NOT NULL) AS "deals.closed",
  date_trunc('quarter', CASE WHEN CAST("deals"."closed_at" AS TIMESTAMP) >= TIMESTAMP '2000-01-01 00:00:00.000' AND CAST("deals"."closed_at" AS TIMESTAMP) < TIMESTAMP '2040-01-01 00:00:00.000' THEN make_timestamp(epoch_us(CAST("deals"."closed_at" AS TIMESTAMP)) + 20700000000) ELSE timezone(CAST($7 AS TEXT), CAST("deals"."closed_at" AS TIMESTAMPTZ)) END) AS "deals.closed_at.quarter",
  count(DISTINCT "accounts"."id") AS "accounts.count",
  count(CASE WHEN ("deals".stage = 'won') THEN 1 END) AS "deals.won",
  max("deals"."value") AS "deals.value"
FROM (SELECT * FROM raw.accounts WHERE deleted_at IS NULL) AS "accounts"
LEFT JOIN "crm"."deals" AS "deals" ON "accounts".id = "deals".account_id
LEFT JOIN "crm"."regions" AS "regions" ON "accounts".region_id = "regions".id
WHERE (((FALSE OR "accounts"."name" IN ($1, $2))) OR ("accounts"."owner_email" IS NOT NULL AND ("accounts"."name" NOT IN ($3, $4) OR "accounts"."name" IS NULL)))
  AND (FALSE)
  AND ((CAST("deals"."stage" AS VARCHAR) NOT ILIKE $5 ESCAPE '\') OR "deals"."stage" IS NULL)
  AND "accounts"."signed_up" >= CAST($6 AS TIMESTAMP)
GROUP BY 1, 2, 3, 4, 5
ORDER BY "deals.closed_at.quarter" ASC NULLS LAST
LIMIT 10000

-- params: ["Initech","Hooli","sales","support","%lost%","2020-01-01T18:15:00.000","Asia/Kathmandu"]
-- columns: ["accounts.label","accounts.signed_up_at","regions.code","deals.closed","deals.closed_at.quarter","accounts.count","deals.won","deals.value"]
-- annotation: {"measures":{"accounts.count":{"title":"Accounts Count","shortTitle":"Count","type":"number","measureType":"count"},"deals.won":{"title":"Deals Won","shortTitle":"Won","type":"number","measureType":"count"},"deals.value":{"title":"Deals Value","shortTitle":"Value","type":"number","measureType":"max"}},"dimensions":{"accounts.label":{"title":"Accounts Label","shortTitle":"Label","type":"string"},"accounts.signed_up_at":{"title":"Accounts Signed Up At","shortTitle":"Signed Up At","type":"time"},"regions.code":{"title":"Regions Code","shortTitle":"Code","type":"string"},"deals.closed":{"title":"Deals Closed","shortTitle":"Closed","type":"boolean"}},"timeDimensions":{"deals.closed_at.quarter":{"title":"Deals Closed At","shortTitle":"Closed At","type":"time","granularity":"quarter"}},"periodComparisons":{}}
