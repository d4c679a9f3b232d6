SELECT * FROM (
  SELECT (WEEKDAY(CASE WHEN CAST(`orders`.`created_at` AS DATETIME(6)) >= TIMESTAMP '2023-12-31 23:00:00.000' AND CAST(`orders`.`created_at` AS DATETIME(6)) < TIMESTAMP '2024-12-31 23:00:00.000' THEN (CAST(`orders`.`created_at` AS DATETIME(6)) + INTERVAL (CASE WHEN CAST(`orders`.`created_at` AS DATETIME(6)) < TIMESTAMP '2024-10-27 01:00:00.000' THEN (CASE WHEN CAST(`orders`.`created_at` AS DATETIME(6)) < TIMESTAMP '2024-03-31 01:00:00.000' THEN 3600000000 ELSE 7200000000 END) ELSE 3600000000 END) MICROSECOND) ELSE CONVERT_TZ(CAST(`orders`.`created_at` AS DATETIME(6)), '+00:00', CAST(? AS CHAR)) END) + 1) AS `sales.created_at.dayOfWeek`,
    HOUR(CASE WHEN CAST(`orders`.`created_at` AS DATETIME(6)) >= TIMESTAMP '2023-12-31 23:00:00.000' AND CAST(`orders`.`created_at` AS DATETIME(6)) < TIMESTAMP '2024-12-31 23:00:00.000' THEN (CAST(`orders`.`created_at` AS DATETIME(6)) + INTERVAL (CASE WHEN CAST(`orders`.`created_at` AS DATETIME(6)) < TIMESTAMP '2024-10-27 01:00:00.000' THEN (CASE WHEN CAST(`orders`.`created_at` AS DATETIME(6)) < TIMESTAMP '2024-03-31 01:00:00.000' THEN 3600000000 ELSE 7200000000 END) ELSE 3600000000 END) MICROSECOND) ELSE CONVERT_TZ(CAST(`orders`.`created_at` AS DATETIME(6)), '+00:00', CAST(? AS CHAR)) END) AS `sales.created_at.hourOfDay`,
    count(*) AS `sales.count`,
    sum(`orders`.`amount`) AS `sales.revenue`
  FROM `main`.`orders` AS `orders`
  WHERE (`orders`.`tenant` = ?)
    AND (`orders`.`created_at` >= CAST(? AS DATETIME(6)) AND `orders`.`created_at` < CAST(? AS DATETIME(6)))
  GROUP BY 1, 2
) AS `q`
ORDER BY `sales.created_at.dayOfWeek` IS NULL, `sales.created_at.dayOfWeek` ASC, `sales.created_at.hourOfDay` IS NULL, `sales.created_at.hourOfDay` ASC
LIMIT 10000

-- params: ["Europe/Berlin","Europe/Berlin","acme-corp","2023-12-31T23:00:00.000","2024-12-31T23:00:00.000"]
-- columns: ["sales.created_at.dayOfWeek","sales.created_at.hourOfDay","sales.count","sales.revenue"]
-- annotation: {"measures":{"sales.count":{"title":"Sales Count","shortTitle":"Count","type":"number","measureType":"count"},"sales.revenue":{"title":"Sales Revenue","shortTitle":"Revenue","type":"number","format":"currency","measureType":"sum"}},"dimensions":{"sales.created_at.dayOfWeek":{"title":"Sales Created At (day of week)","shortTitle":"Created At (day of week)","type":"number","timePart":"dayOfWeek"},"sales.created_at.hourOfDay":{"title":"Sales Created At (hour of day)","shortTitle":"Created At (hour of day)","type":"number","timePart":"hourOfDay"}},"timeDimensions":{},"periodComparisons":{}}
