SELECT * FROM (
  SELECT (upper((`accounts`.`name`)) || ' #' || CAST(`accounts`.id AS VARCHAR)) AS `accounts.label`,
    CASE WHEN CAST(`accounts`.`signed_up` AS DATETIME(6)) >= TIMESTAMP '2000-01-01 00:00:00.000' AND CAST(`accounts`.`signed_up` AS DATETIME(6)) < TIMESTAMP '2040-01-01 00:00:00.000' THEN (CAST(`accounts`.`signed_up` AS DATETIME(6)) + INTERVAL 20700000000 MICROSECOND) ELSE CONVERT_TZ(CAST(`accounts`.`signed_up` AS DATETIME(6)), '+00:00', CAST(? AS CHAR)) END AS `accounts.signed_up_at`,
    `regions`.`code` AS `regions.code`,
    (`deals`.closed_at IS NOT NULL) AS `deals.closed`,
    (CAST(DATE_FORMAT(CASE WHEN CAST(`deals`.`closed_at` AS DATETIME(6)) >= TIMESTAMP '2000-01-01 00:00:00.000' AND CAST(`deals`.`closed_at` AS DATETIME(6)) < TIMESTAMP '2040-01-01 00:00:00.000' THEN (CAST(`deals`.`closed_at` AS DATETIME(6)) + INTERVAL 20700000000 MICROSECOND) ELSE CONVERT_TZ(CAST(`deals`.`closed_at` AS DATETIME(6)), '+00:00', CAST(? AS CHAR)) END, '%Y-01-01 00:00:00') AS DATETIME(6)) + INTERVAL (QUARTER(CASE WHEN CAST(`deals`.`closed_at` AS DATETIME(6)) >= TIMESTAMP '2000-01-01 00:00:00.000' AND CAST(`deals`.`closed_at` AS DATETIME(6)) < TIMESTAMP '2040-01-01 00:00:00.000' THEN (CAST(`deals`.`closed_at` AS DATETIME(6)) + INTERVAL 20700000000 MICROSECOND) ELSE CONVERT_TZ(CAST(`deals`.`closed_at` AS DATETIME(6)), '+00:00', CAST(? AS CHAR)) END) - 1) QUARTER) AS `deals.closed_at.quarter`,
    count(DISTINCT `accounts`.`id`) AS `accounts.count`,
    count(CASE WHEN (`deals`.stage = 'won') THEN 1 END) AS `deals.won`,
    max(`deals`.`value`) AS `deals.value`
  FROM (SELECT * FROM raw.accounts WHERE deleted_at IS NULL) AS `accounts`
  LEFT JOIN `crm`.`deals` AS `deals` ON `accounts`.id = `deals`.account_id
  LEFT JOIN `crm`.`regions` AS `regions` ON `accounts`.region_id = `regions`.id
  WHERE (((FALSE OR `accounts`.`name` IN (?, ?))) OR (`accounts`.`owner_email` IS NOT NULL AND (`accounts`.`name` NOT IN (?, ?) OR `accounts`.`name` IS NULL)))
    AND (FALSE)
    AND ((LOWER(CAST(`deals`.`stage` AS CHAR)) NOT LIKE LOWER(?) ESCAPE '!') OR `deals`.`stage` IS NULL)
    AND `accounts`.`signed_up` >= CAST(? AS DATETIME(6))
  GROUP BY 1, 2, 3, 4, 5
) AS `q`
ORDER BY `deals.closed_at.quarter` IS NULL, `deals.closed_at.quarter` ASC
LIMIT 10000

-- params: ["Asia/Kathmandu","Asia/Kathmandu","Asia/Kathmandu","Initech","Hooli","sales","support","%lost%","2020-01-01T18:15:00.000"]
-- columns: ["accounts.label","accounts.signed_up_at","regions.code","deals.closed","deals.closed_at.quarter","accounts.count","deals.won","deals.value"]
-- annotation: {"measures":{"accounts.count":{"title":"Accounts Count","shortTitle":"Count","type":"number","measureType":"count"},"deals.won":{"title":"Deals Won","shortTitle":"Won","type":"number","measureType":"count"},"deals.value":{"title":"Deals Value","shortTitle":"Value","type":"number","measureType":"max"}},"dimensions":{"accounts.label":{"title":"Accounts Label","shortTitle":"Label","type":"string"},"accounts.signed_up_at":{"title":"Accounts Signed Up At","shortTitle":"Signed Up At","type":"time"},"regions.code":{"title":"Regions Code","shortTitle":"Code","type":"string"},"deals.closed":{"title":"Deals Closed","shortTitle":"Closed","type":"boolean"}},"timeDimensions":{"deals.closed_at.quarter":{"title":"Deals Closed At","shortTitle":"Closed At","type":"time","granularity":"quarter"}},"periodComparisons":{}}
