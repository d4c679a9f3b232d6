SELECT * FROM (
  SELECT `deals`.`stage` AS `deals.stage`,
    CAST(DATE_FORMAT(CASE WHEN CAST(`accounts`.`signed_up` AS DATETIME(6)) >= TIMESTAMP '2024-11-14 13:00:00.000' AND CAST(`accounts`.`signed_up` AS DATETIME(6)) < TIMESTAMP '2024-11-15 13:00:00.000' THEN (CAST(`accounts`.`signed_up` AS DATETIME(6)) + INTERVAL 39600000000 MICROSECOND) ELSE CONVERT_TZ(CAST(`accounts`.`signed_up` AS DATETIME(6)), '+00:00', CAST(? AS CHAR)) END, '%Y-%m-%d %H:%i:%s') AS DATETIME(6)) AS `accounts.signed_up_at.second`,
    count(DISTINCT `accounts`.`id`) AS `accounts.count`,
    count(DISTINCT `accounts`.`name`) AS `accounts.names`
  FROM (SELECT * FROM raw.accounts WHERE deleted_at IS NULL) AS `accounts`
  LEFT JOIN `crm`.`deals` AS `deals` ON `accounts`.id = `deals`.account_id
  WHERE (`accounts`.`owner_email` IS NOT NULL AND (`accounts`.`name` <> ? OR `accounts`.`name` IS NULL))
    AND (`deals`.`closed_at` >= CAST(? AS DATETIME(6)) AND `deals`.`closed_at` < CAST(? AS DATETIME(6)))
    AND (`accounts`.`signed_up` >= CAST(? AS DATETIME(6)) AND `accounts`.`signed_up` < CAST(? AS DATETIME(6)))
  GROUP BY 1, 2
) AS `q`
ORDER BY `accounts.signed_up_at.second` IS NULL, `accounts.signed_up_at.second` ASC
LIMIT 10000

-- params: ["Australia/Lord_Howe","support","2024-09-30T13:30:00.000","2024-12-31T13:00:00.000","2024-11-14T13:00:00.000","2024-11-15T13:00:00.000"]
-- columns: ["deals.stage","accounts.signed_up_at.second","accounts.count","accounts.names"]
-- annotation: {"measures":{"accounts.count":{"title":"Accounts Count","shortTitle":"Count","type":"number","measureType":"count"},"accounts.names":{"title":"Accounts Names","shortTitle":"Names","type":"number","measureType":"count_distinct"}},"dimensions":{"deals.stage":{"title":"Deals Stage","shortTitle":"Stage","type":"string"}},"timeDimensions":{"accounts.signed_up_at.second":{"title":"Accounts Signed Up At","shortTitle":"Signed Up At","type":"time","granularity":"second"}},"periodComparisons":{}}
