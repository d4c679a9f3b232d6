WITH RECURSIVE `q` AS (
  SELECT `customers`.`country` AS `sales.customers_country`,
    `customers`.`city` AS `sales.customers_city`,
    CAST(DATE_FORMAT((CASE WHEN CAST(`orders`.`created_at` AS DATETIME(6)) >= TIMESTAMP '2023-12-31 23:00:00.000' AND CAST(`orders`.`created_at` AS DATETIME(6)) < TIMESTAMP '2024-03-31 22:00:00.000' THEN (CAST(`orders`.`created_at` AS DATETIME(6)) + INTERVAL (CASE WHEN CAST(`orders`.`created_at` AS DATETIME(6)) < TIMESTAMP '2024-03-31 01:00:00.000' THEN 3600000000 ELSE 7200000000 END) MICROSECOND) ELSE CONVERT_TZ(CAST(`orders`.`created_at` AS DATETIME(6)), '+00:00', CAST(? AS CHAR)) END) - INTERVAL WEEKDAY(CASE WHEN CAST(`orders`.`created_at` AS DATETIME(6)) >= TIMESTAMP '2023-12-31 23:00:00.000' AND CAST(`orders`.`created_at` AS DATETIME(6)) < TIMESTAMP '2024-03-31 22:00:00.000' THEN (CAST(`orders`.`created_at` AS DATETIME(6)) + INTERVAL (CASE WHEN CAST(`orders`.`created_at` AS DATETIME(6)) < TIMESTAMP '2024-03-31 01:00:00.000' THEN 3600000000 ELSE 7200000000 END) MICROSECOND) ELSE CONVERT_TZ(CAST(`orders`.`created_at` AS DATETIME(6)), '+00:00', CAST(? AS CHAR)) END) DAY, '%Y-%m-%d 00:00:00') AS DATETIME(6)) AS `sales.created_at.week`,
    count(*) AS `sales.count`,
    sum(`orders`.`amount`) AS `sales.revenue`,
    avg(`orders`.`amount`) AS `sales.avg_amount`
  FROM `main`.`orders` AS `orders`
  LEFT JOIN `main`.`customers` AS `customers` ON `orders`.customer_id = `customers`.customer_id
  WHERE (`orders`.`tenant` = ?)
    AND (`customers`.`tenant` = ?)
    AND (`orders`.`created_at` >= CAST(? AS DATETIME(6)) AND `orders`.`created_at` < CAST(? AS DATETIME(6)))
  GROUP BY 1, 2, 3
),
`time_grid` AS (
  SELECT CAST(CAST(? AS DATETIME(6)) AS DATETIME(6)) AS `sales.created_at.week`
  UNION ALL
  SELECT `sales.created_at.week` + INTERVAL 1 WEEK FROM `time_grid` WHERE `sales.created_at.week` + INTERVAL 1 WEEK <= CAST(? AS DATETIME(6))
),
`dimension_values` AS (
  SELECT DISTINCT `sales.customers_country` FROM `q`
),
`grid` AS (
  SELECT * FROM `time_grid` CROSS JOIN `dimension_values`
),
`filled` AS (
  SELECT `grid`.`sales.customers_country`, `q`.`sales.customers_city`, `grid`.`sales.created_at.week`, COALESCE(`q`.`sales.count`, 0) AS `sales.count`, COALESCE(`q`.`sales.revenue`, 0) AS `sales.revenue`, `q`.`sales.avg_amount`
  FROM `grid` LEFT JOIN `q` ON `q`.`sales.created_at.week` <=> `grid`.`sales.created_at.week` AND `q`.`sales.customers_country` <=> `grid`.`sales.customers_country`
)
SELECT `base`.*
FROM `filled` AS `base`
ORDER BY `base`.`sales.created_at.week` IS NULL, `base`.`sales.created_at.week` ASC, `base`.`sales.customers_country` IS NULL, `base`.`sales.customers_country` ASC
LIMIT 10000

-- params: ["Europe/Berlin","Europe/Berlin","acme-corp","acme-corp","2023-12-31T23:00:00.000","2024-03-31T22:00:00.000","2024-01-01T00:00:00.000","2024-03-25T00:00:00.000"]
-- columns: ["sales.customers_country","sales.customers_city","sales.created_at.week","sales.count","sales.revenue","sales.avg_amount"]
-- annotation: {"measures":{"sales.count":{"title":"Sales Count","shortTitle":"Count","type":"number","measureType":"count"},"sales.revenue":{"title":"Sales Revenue","shortTitle":"Revenue","type":"number","format":"currency","measureType":"sum"},"sales.avg_amount":{"title":"Sales Avg Amount","shortTitle":"Avg Amount","type":"number","measureType":"avg"}},"dimensions":{"sales.customers_country":{"title":"Sales Customers Country","shortTitle":"Country","type":"string"},"sales.customers_city":{"title":"Sales Customers City","shortTitle":"City","type":"string"}},"timeDimensions":{"sales.created_at.week":{"title":"Sales Created At","shortTitle":"Created At","type":"time","granularity":"week"}},"periodComparisons":{}}
