SELECT * FROM (
  SELECT CONVERT_TZ(CAST(`orders`.`created_at` AS DATETIME(6)), '+00:00', CAST(? AS CHAR)) AS `sales.created_at`,
    CAST(DATE_FORMAT(CONVERT_TZ(CAST(`orders`.`created_at` AS DATETIME(6)), '+00:00', CAST(? AS CHAR)), '%Y-%m-%d 00:00:00') AS DATETIME(6)) AS `sales.created_at.day`,
    CAST(DATE_FORMAT(CONVERT_TZ(CAST(`orders`.`created_at` AS DATETIME(6)), '+00:00', CAST(? AS CHAR)), '%Y-01-01 00:00:00') AS DATETIME(6)) AS `sales.created_at.year`,
    count(*) AS `sales.count`
  FROM `main`.`orders` AS `orders`
  WHERE (`orders`.`created_at` >= CAST(? AS DATETIME(6)) AND `orders`.`created_at` < CAST(? AS DATETIME(6)))
    AND (`orders`.`created_at` >= CAST(? AS DATETIME(6)) AND `orders`.`created_at` < CAST(? AS DATETIME(6)))
  GROUP BY 1, 2, 3
) AS `q`
ORDER BY `sales.created_at.day` IS NULL, `sales.created_at.day` ASC
LIMIT 10000

-- params: ["Europe/Berlin","Europe/Berlin","Europe/Berlin","1989-12-31T23:00:00.000","1990-12-31T23:00:00.000","2039-05-31T22:00:00.000","2041-01-01T23:00:00.000"]
-- columns: ["sales.created_at","sales.created_at.day","sales.created_at.year","sales.count"]
-- annotation: {"measures":{"sales.count":{"title":"Sales Count","shortTitle":"Count","type":"number","measureType":"count"}},"dimensions":{"sales.created_at":{"title":"Sales Created At","shortTitle":"Created At","type":"time"}},"timeDimensions":{"sales.created_at.day":{"title":"Sales Created At","shortTitle":"Created At","type":"time","granularity":"day"},"sales.created_at.year":{"title":"Sales Created At","shortTitle":"Created At","type":"time","granularity":"year"}},"periodComparisons":{}}
