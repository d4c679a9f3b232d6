SELECT "deals"."stage" AS "deals.stage",
  date_trunc('second', (CAST("accounts"."signed_up" AS TIMESTAMPTZ) AT TIME ZONE CAST($2 AS TEXT))) AS "accounts.signed_up_at.second",
  count(DISTINCT "accounts"."id") AS "accounts.count",
  count(DISTINCT "accounts"."name") AS "accounts.names"
FROM (SELECT * FROM raw.accounts WHERE deleted_at IS NULL) AS "accounts"
LEFT JOIN "crm"."deals" AS "deals" ON "accounts".id = "deals".account_id
WHERE ("accounts"."owner_email" IS NOT NULL AND ("accounts"."name" <> $1 OR "accounts"."name" IS NULL))
  AND ("deals"."closed_at" >= CAST($3 AS TIMESTAMP) AND "deals"."closed_at" < CAST($4 AS TIMESTAMP))
  AND ("accounts"."signed_up" >= CAST($5 AS TIMESTAMP) AND "accounts"."signed_up" < CAST($6 AS TIMESTAMP))
GROUP BY 1, 2
ORDER BY "accounts.signed_up_at.second" ASC NULLS LAST
LIMIT 10000

-- params: ["support","Australia/Lord_Howe","2024-09-30T13:30:00.000","2024-12-31T13:00:00.000","2024-11-14T13:00:00.000","2024-11-15T13:00:00.000"]
-- columns: ["deals.stage","accounts.signed_up_at.second","accounts.count","accounts.names"]
-- annotation: {"measures":{"accounts.count":{"title":"Accounts Count","shortTitle":"Count","type":"number","measureType":"count"},"accounts.names":{"title":"Accounts Names","shortTitle":"Names","type":"number","measureType":"count_distinct"}},"dimensions":{"deals.stage":{"title":"Deals Stage","shortTitle":"Stage","type":"string"}},"timeDimensions":{"accounts.signed_up_at.second":{"title":"Accounts Signed Up At","shortTitle":"Signed Up At","type":"time","granularity":"second"}},"periodComparisons":{}}
