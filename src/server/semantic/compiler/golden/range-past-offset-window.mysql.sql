SELECT * FROM (
  SELECT CAST(DATE_FORMAT(CASE WHEN CAST(`deals`.`closed_at` AS DATETIME(6)) >= TIMESTAMP '2039-05-31 22:00:00.000' AND CAST(`deals`.`closed_at` AS DATETIME(6)) < TIMESTAMP '2040-01-01 00:00:00.000' THEN (CAST(`deals`.`closed_at` AS DATETIME(6)) + INTERVAL (CASE WHEN CAST(`deals`.`closed_at` AS DATETIME(6)) < TIMESTAMP '2039-10-30 01:00:00.000' THEN 7200000000 ELSE 3600000000 END) MICROSECOND) ELSE CONVERT_TZ(CAST(`deals`.`closed_at` AS DATETIME(6)), '+00:00', CAST(? AS CHAR)) END, '%Y-%m-01 00:00:00') AS DATETIME(6)) AS `deals.closed_at.month`,
    count(*) AS `deals.count`
  FROM `crm`.`deals` AS `deals`
  WHERE (`deals`.`closed_at` >= CAST(? AS DATETIME(6)) AND `deals`.`closed_at` < CAST(? AS DATETIME(6)))
  GROUP BY 1
) AS `q`
ORDER BY `deals.closed_at.month` IS NULL, `deals.closed_at.month` ASC
LIMIT 10000

-- params: ["Europe/Berlin","2039-05-31T22:00:00.000","2041-01-01T23:00:00.000"]
-- columns: ["deals.closed_at.month","deals.count"]
-- annotation: {"measures":{"deals.count":{"title":"Deals Count","shortTitle":"Count","type":"number","measureType":"count"}},"dimensions":{},"timeDimensions":{"deals.closed_at.month":{"title":"Deals Closed At","shortTitle":"Closed At","type":"time","granularity":"month"}},"periodComparisons":{}}
