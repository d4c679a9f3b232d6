WITH RECURSIVE `q` AS (
  SELECT `customers`.`city` AS `sales.customers_city`,
    CAST(DATE_FORMAT(CASE WHEN CAST(`orders`.`created_at` AS DATETIME(6)) >= TIMESTAMP '2023-12-31 23:00:00.000' AND CAST(`orders`.`created_at` AS DATETIME(6)) < TIMESTAMP '2024-06-30 22:00:00.000' THEN (CAST(`orders`.`created_at` AS DATETIME(6)) + INTERVAL (CASE WHEN CAST(`orders`.`created_at` AS DATETIME(6)) < TIMESTAMP '2024-03-31 01:00:00.000' THEN 3600000000 ELSE 7200000000 END) MICROSECOND) ELSE CONVERT_TZ(CAST(`orders`.`created_at` AS DATETIME(6)), '+00:00', CAST(? AS CHAR)) END, '%Y-%m-01 00:00:00') AS DATETIME(6)) AS `sales.created_at.month`,
    (CAST(DATE_FORMAT(CASE WHEN CAST(`orders`.`created_at` AS DATETIME(6)) >= TIMESTAMP '2023-12-31 23:00:00.000' AND CAST(`orders`.`created_at` AS DATETIME(6)) < TIMESTAMP '2024-06-30 22:00:00.000' THEN (CAST(`orders`.`created_at` AS DATETIME(6)) + INTERVAL (CASE WHEN CAST(`orders`.`created_at` AS DATETIME(6)) < TIMESTAMP '2024-03-31 01:00:00.000' THEN 3600000000 ELSE 7200000000 END) MICROSECOND) ELSE CONVERT_TZ(CAST(`orders`.`created_at` AS DATETIME(6)), '+00:00', CAST(? AS CHAR)) END, '%Y-01-01 00:00:00') AS DATETIME(6)) + INTERVAL (QUARTER(CASE WHEN CAST(`orders`.`created_at` AS DATETIME(6)) >= TIMESTAMP '2023-12-31 23:00:00.000' AND CAST(`orders`.`created_at` AS DATETIME(6)) < TIMESTAMP '2024-06-30 22:00:00.000' THEN (CAST(`orders`.`created_at` AS DATETIME(6)) + INTERVAL (CASE WHEN CAST(`orders`.`created_at` AS DATETIME(6)) < TIMESTAMP '2024-03-31 01:00:00.000' THEN 3600000000 ELSE 7200000000 END) MICROSECOND) ELSE CONVERT_TZ(CAST(`orders`.`created_at` AS DATETIME(6)), '+00:00', CAST(? AS CHAR)) END) - 1) QUARTER) AS `sales.created_at.quarter`,
    sum(`orders`.`amount`) AS `sales.revenue`,
    count(*) AS `sales.count`
  FROM `main`.`orders` AS `orders`
  LEFT JOIN `main`.`customers` AS `customers` ON `orders`.customer_id = `customers`.customer_id
  WHERE (`orders`.`tenant` = ?)
    AND (`customers`.`tenant` = ?)
    AND (`orders`.`created_at` >= CAST(? AS DATETIME(6)) AND `orders`.`created_at` < CAST(? AS DATETIME(6)))
  GROUP BY 1, 2, 3
),
`time_grid` AS (
  SELECT CAST(CAST(? AS DATETIME(6)) AS DATETIME(6)) AS `sales.created_at.month`
  UNION ALL
  SELECT `sales.created_at.month` + INTERVAL 1 MONTH FROM `time_grid` WHERE `sales.created_at.month` + INTERVAL 1 MONTH <= CAST(? AS DATETIME(6))
),
`dimension_values` AS (
  SELECT DISTINCT `sales.customers_city`, `sales.created_at.quarter` FROM `q`
),
`grid` AS (
  SELECT * FROM `time_grid` CROSS JOIN `dimension_values`
),
`filled` AS (
  SELECT `grid`.`sales.customers_city`, `grid`.`sales.created_at.month`, `grid`.`sales.created_at.quarter`, COALESCE(`q`.`sales.revenue`, 0) AS `sales.revenue`, COALESCE(`q`.`sales.count`, 0) AS `sales.count`
  FROM `grid` LEFT JOIN `q` ON `q`.`sales.created_at.month` <=> `grid`.`sales.created_at.month` AND `q`.`sales.customers_city` <=> `grid`.`sales.customers_city` AND `q`.`sales.created_at.quarter` <=> `grid`.`sales.created_at.quarter`
),
`period_0` AS (
  SELECT `customers`.`city` AS `sales.customers_city`,
    CAST(DATE_FORMAT(CASE WHEN CAST(`orders`.`created_at` AS DATETIME(6)) >= TIMESTAMP '2022-12-31 23:00:00.000' AND CAST(`orders`.`created_at` AS DATETIME(6)) < TIMESTAMP '2023-06-30 22:00:00.000' THEN (CAST(`orders`.`created_at` AS DATETIME(6)) + INTERVAL (CASE WHEN CAST(`orders`.`created_at` AS DATETIME(6)) < TIMESTAMP '2023-03-26 01:00:00.000' THEN 3600000000 ELSE 7200000000 END) MICROSECOND) ELSE CONVERT_TZ(CAST(`orders`.`created_at` AS DATETIME(6)), '+00:00', CAST(? AS CHAR)) END + INTERVAL 1 YEAR, '%Y-%m-01 00:00:00') AS DATETIME(6)) AS `sales.created_at.month`,
    (CAST(DATE_FORMAT(CASE WHEN CAST(`orders`.`created_at` AS DATETIME(6)) >= TIMESTAMP '2022-12-31 23:00:00.000' AND CAST(`orders`.`created_at` AS DATETIME(6)) < TIMESTAMP '2023-06-30 22:00:00.000' THEN (CAST(`orders`.`created_at` AS DATETIME(6)) + INTERVAL (CASE WHEN CAST(`orders`.`created_at` AS DATETIME(6)) < TIMESTAMP '2023-03-26 01:00:00.000' THEN 3600000000 ELSE 7200000000 END) MICROSECOND) ELSE CONVERT_TZ(CAST(`orders`.`created_at` AS DATETIME(6)), '+00:00', CAST(? AS CHAR)) END, '%Y-01-01 00:00:00') AS DATETIME(6)) + INTERVAL (QUARTER(CASE WHEN CAST(`orders`.`created_at` AS DATETIME(6)) >= TIMESTAMP '2022-12-31 23:00:00.000' AND CAST(`orders`.`created_at` AS DATETIME(6)) < TIMESTAMP '2023-06-30 22:00:00.000' THEN (CAST(`orders`.`created_at` AS DATETIME(6)) + INTERVAL (CASE WHEN CAST(`orders`.`created_at` AS DATETIME(6)) < TIMESTAMP '2023-03-26 01:00:00.000' THEN 3600000000 ELSE 7200000000 END) MICROSECOND) ELSE CONVERT_TZ(CAST(`orders`.`created_at` AS DATETIME(6)), '+00:00', CAST(? AS CHAR)) END) - 1) QUARTER) AS `sales.created_at.quarter`,
    sum(`orders`.`amount`) AS `value`
  FROM `main`.`orders` AS `orders`
  LEFT JOIN `main`.`customers` AS `customers` ON `orders`.customer_id = `customers`.customer_id
  WHERE (`orders`.`tenant` = ?)
    AND (`customers`.`tenant` = ?)
    AND (`orders`.`created_at` >= CAST(? AS DATETIME(6)) AND `orders`.`created_at` < CAST(? AS DATETIME(6)))
  GROUP BY 1, 2, 3
),
`period_1` AS (
  SELECT `customers`.`city` AS `sales.customers_city`,
    CAST(DATE_FORMAT(CASE WHEN CAST(`orders`.`created_at` AS DATETIME(6)) >= TIMESTAMP '2024-06-30 22:00:00.000' AND CAST(`orders`.`created_at` AS DATETIME(6)) < TIMESTAMP '2024-12-31 23:00:00.000' THEN (CAST(`orders`.`created_at` AS DATETIME(6)) + INTERVAL (CASE WHEN CAST(`orders`.`created_at` AS DATETIME(6)) < TIMESTAMP '2024-10-27 01:00:00.000' THEN 7200000000 ELSE 3600000000 END) MICROSECOND) ELSE CONVERT_TZ(CAST(`orders`.`created_at` AS DATETIME(6)), '+00:00', CAST(? AS CHAR)) END + INTERVAL -2 QUARTER, '%Y-%m-01 00:00:00') AS DATETIME(6)) AS `sales.created_at.month`,
    (CAST(DATE_FORMAT(CASE WHEN CAST(`orders`.`created_at` AS DATETIME(6)) >= TIMESTAMP '2024-06-30 22:00:00.000' AND CAST(`orders`.`created_at` AS DATETIME(6)) < TIMESTAMP '2024-12-31 23:00:00.000' THEN (CAST(`orders`.`created_at` AS DATETIME(6)) + INTERVAL (CASE WHEN CAST(`orders`.`created_at` AS DATETIME(6)) < TIMESTAMP '2024-10-27 01:00:00.000' THEN 7200000000 ELSE 3600000000 END) MICROSECOND) ELSE CONVERT_TZ(CAST(`orders`.`created_at` AS DATETIME(6)), '+00:00', CAST(? AS CHAR)) END, '%Y-01-01 00:00:00') AS DATETIME(6)) + INTERVAL (QUARTER(CASE WHEN CAST(`orders`.`created_at` AS DATETIME(6)) >= TIMESTAMP '2024-06-30 22:00:00.000' AND CAST(`orders`.`created_at` AS DATETIME(6)) < TIMESTAMP '2024-12-31 23:00:00.000' THEN (CAST(`orders`.`created_at` AS DATETIME(6)) + INTERVAL (CASE WHEN CAST(`orders`.`created_at` AS DATETIME(6)) < TIMESTAMP '2024-10-27 01:00:00.000' THEN 7200000000 ELSE 3600000000 END) MICROSECOND) ELSE CONVERT_TZ(CAST(`orders`.`created_at` AS DATETIME(6)), '+00:00', CAST(? AS CHAR)) END) - 1) QUARTER) AS `sales.created_at.quarter`,
    count(*) AS `value`
  FROM `main`.`orders` AS `orders`
  LEFT JOIN `main`.`customers` AS `customers` ON `orders`.customer_id = `customers`.customer_id
  WHERE (`orders`.`tenant` = ?)
    AND (`customers`.`tenant` = ?)
    AND (`orders`.`created_at` >= CAST(? AS DATETIME(6)) AND `orders`.`created_at` < CAST(? AS DATETIME(6)))
  GROUP BY 1, 2, 3
),
`period_2` AS (
  SELECT `customers`.`city` AS `sales.customers_city`,
    CAST(DATE_FORMAT(CASE WHEN CAST(`orders`.`created_at` AS DATETIME(6)) >= TIMESTAMP '2023-12-10 23:00:00.000' AND CAST(`orders`.`created_at` AS DATETIME(6)) < TIMESTAMP '2024-06-09 22:00:00.000' THEN (CAST(`orders`.`created_at` AS DATETIME(6)) + INTERVAL (CASE WHEN CAST(`orders`.`created_at` AS DATETIME(6)) < TIMESTAMP '2024-03-31 01:00:00.000' THEN 3600000000 ELSE 7200000000 END) MICROSECOND) ELSE CONVERT_TZ(CAST(`orders`.`created_at` AS DATETIME(6)), '+00:00', CAST(? AS CHAR)) END + INTERVAL 3 WEEK, '%Y-%m-01 00:00:00') AS DATETIME(6)) AS `sales.created_at.month`,
    (CAST(DATE_FORMAT(CASE WHEN CAST(`orders`.`created_at` AS DATETIME(6)) >= TIMESTAMP '2023-12-10 23:00:00.000' AND CAST(`orders`.`created_at` AS DATETIME(6)) < TIMESTAMP '2024-06-09 22:00:00.000' THEN (CAST(`orders`.`created_at` AS DATETIME(6)) + INTERVAL (CASE WHEN CAST(`orders`.`created_at` AS DATETIME(6)) < TIMESTAMP '2024-03-31 01:00:00.000' THEN 3600000000 ELSE 7200000000 END) MICROSECOND) ELSE CONVERT_TZ(CAST(`orders`.`created_at` AS DATETIME(6)), '+00:00', CAST(? AS CHAR)) END, '%Y-01-01 00:00:00') AS DATETIME(6)) + INTERVAL (QUARTER(CASE WHEN CAST(`orders`.`created_at` AS DATETIME(6)) >= TIMESTAMP '2023-12-10 23:00:00.000' AND CAST(`orders`.`created_at` AS DATETIME(6)) < TIMESTAMP '2024-06-09 22:00:00.000' THEN (CAST(`orders`.`created_at` AS DATETIME(6)) + INTERVAL (CASE WHEN CAST(`orders`.`created_at` AS DATETIME(6)) < TIMESTAMP '2024-03-31 01:00:00.000' THEN 3600000000 ELSE 7200000000 END) MICROSECOND) ELSE CONVERT_TZ(CAST(`orders`.`created_at` AS DATETIME(6)), '+00:00', CAST(? AS CHAR)) END) - 1) QUARTER) AS `sales.created_at.quarter`,
    count(*) AS `value`
  FROM `main`.`orders` AS `orders`
  LEFT JOIN `main`.`customers` AS `customers` ON `orders`.customer_id = `customers`.customer_id
  WHERE (`orders`.`tenant` = ?)
    AND (`customers`.`tenant` = ?)
    AND (`orders`.`created_at` >= CAST(? AS DATETIME(6)) AND `orders`.`created_at` < CAST(? AS DATETIME(6)))
  GROUP BY 1, 2, 3
),
`period_3` AS (
  SELECT `customers`.`city` AS `sales.customers_city`,
    CAST(DATE_FORMAT(CASE WHEN CAST(`orders`.`created_at` AS DATETIME(6)) >= TIMESTAMP '2023-12-30 23:00:00.000' AND CAST(`orders`.`created_at` AS DATETIME(6)) < TIMESTAMP '2024-06-29 22:00:00.000' THEN (CAST(`orders`.`created_at` AS DATETIME(6)) + INTERVAL (CASE WHEN CAST(`orders`.`created_at` AS DATETIME(6)) < TIMESTAMP '2024-03-31 01:00:00.000' THEN 3600000000 ELSE 7200000000 END) MICROSECOND) ELSE CONVERT_TZ(CAST(`orders`.`created_at` AS DATETIME(6)), '+00:00', CAST(? AS CHAR)) END + INTERVAL 1 DAY, '%Y-%m-01 00:00:00') AS DATETIME(6)) AS `sales.created_at.month`,
    (CAST(DATE_FORMAT(CASE WHEN CAST(`orders`.`created_at` AS DATETIME(6)) >= TIMESTAMP '2023-12-30 23:00:00.000' AND CAST(`orders`.`created_at` AS DATETIME(6)) < TIMESTAMP '2024-06-29 22:00:00.000' THEN (CAST(`orders`.`created_at` AS DATETIME(6)) + INTERVAL (CASE WHEN CAST(`orders`.`created_at` AS DATETIME(6)) < TIMESTAMP '2024-03-31 01:00:00.000' THEN 3600000000 ELSE 7200000000 END) MICROSECOND) ELSE CONVERT_TZ(CAST(`orders`.`created_at` AS DATETIME(6)), '+00:00', CAST(? AS CHAR)) END, '%Y-01-01 00:00:00') AS DATETIME(6)) + INTERVAL (QUARTER(CASE WHEN CAST(`orders`.`created_at` AS DATETIME(6)) >= TIMESTAMP '2023-12-30 23:00:00.000' AND CAST(`orders`.`created_at` AS DATETIME(6)) < TIMESTAMP '2024-06-29 22:00:00.000' THEN (CAST(`orders`.`created_at` AS DATETIME(6)) + INTERVAL (CASE WHEN CAST(`orders`.`created_at` AS DATETIME(6)) < TIMESTAMP '2024-03-31 01:00:00.000' THEN 3600000000 ELSE 7200000000 END) MICROSECOND) ELSE CONVERT_TZ(CAST(`orders`.`created_at` AS DATETIME(6)), '+00:00', CAST(? AS CHAR)) END) - 1) QUARTER) AS `sales.created_at.quarter`,
    sum(`orders`.`amount`) AS `value`
  FROM `main`.`orders` AS `orders`
  LEFT JOIN `main`.`customers` AS `customers` ON `orders`.customer_id = `customers`.customer_id
  WHERE (`orders`.`tenant` = ?)
    AND (`customers`.`tenant` = ?)
    AND (`orders`.`created_at` >= CAST(? AS DATETIME(6)) AND `orders`.`created_at` < CAST(? AS DATETIME(6)))
  GROUP BY 1, 2, 3
),
`period_4` AS (
  SELECT `customers`.`city` AS `sales.customers_city`,
    CAST(DATE_FORMAT(CASE WHEN CAST(`orders`.`created_at` AS DATETIME(6)) >= TIMESTAMP '2023-10-31 23:00:00.000' AND CAST(`orders`.`created_at` AS DATETIME(6)) < TIMESTAMP '2024-04-30 22:00:00.000' THEN (CAST(`orders`.`created_at` AS DATETIME(6)) + INTERVAL (CASE WHEN CAST(`orders`.`created_at` AS DATETIME(6)) < TIMESTAMP '2024-03-31 01:00:00.000' THEN 3600000000 ELSE 7200000000 END) MICROSECOND) ELSE CONVERT_TZ(CAST(`orders`.`created_at` AS DATETIME(6)), '+00:00', CAST(? AS CHAR)) END + INTERVAL 2 MONTH, '%Y-%m-01 00:00:00') AS DATETIME(6)) AS `sales.created_at.month`,
    (CAST(DATE_FORMAT(CASE WHEN CAST(`orders`.`created_at` AS DATETIME(6)) >= TIMESTAMP '2023-10-31 23:00:00.000' AND CAST(`orders`.`created_at` AS DATETIME(6)) < TIMESTAMP '2024-04-30 22:00:00.000' THEN (CAST(`orders`.`created_at` AS DATETIME(6)) + INTERVAL (CASE WHEN CAST(`orders`.`created_at` AS DATETIME(6)) < TIMESTAMP '2024-03-31 01:00:00.000' THEN 3600000000 ELSE 7200000000 END) MICROSECOND) ELSE CONVERT_TZ(CAST(`orders`.`created_at` AS DATETIME(6)), '+00:00', CAST(? AS CHAR)) END, '%Y-01-01 00:00:00') AS DATETIME(6)) + INTERVAL (QUARTER(CASE WHEN CAST(`orders`.`created_at` AS DATETIME(6)) >= TIMESTAMP '2023-10-31 23:00:00.000' AND CAST(`orders`.`created_at` AS DATETIME(6)) < TIMESTAMP '2024-04-30 22:00:00.000' THEN (CAST(`orders`.`created_at` AS DATETIME(6)) + INTERVAL (CASE WHEN CAST(`orders`.`created_at` AS DATETIME(6)) < TIMESTAMP '2024-03-31 01:00:00.000' THEN 3600000000 ELSE 7200000000 END) MICROSECOND) ELSE CONVERT_TZ(CAST(`orders`.`created_at` AS DATETIME(6)), '+00:00', CAST(? AS CHAR)) END) - 1) QUARTER) AS `sales.created_at.quarter`,
    sum(`orders`.`amount`) AS `value`
  FROM `main`.`orders` AS `orders`
  LEFT JOIN `main`.`customers` AS `customers` ON `orders`.customer_id = `customers`.customer_id
  WHERE (`orders`.`tenant` = ?)
    AND (`customers`.`tenant` = ?)
    AND (`orders`.`created_at` >= CAST(? AS DATETIME(6)) AND `orders`.`created_at` < CAST(? AS DATETIME(6)))
  GROUP BY 1, 2, 3
)
SELECT `base`.*, `period_0`.`value` AS `sales.revenue_prev_year`, `base`.`sales.revenue` - `period_0`.`value` AS `sales.revenue_change`, (`base`.`sales.revenue` - `period_0`.`value`) / NULLIF(CAST(`period_0`.`value` AS DOUBLE), 0) AS `sales.revenue_change_pct`, `period_1`.`value` AS `sales.count_next_2_quarters`, `period_2`.`value` AS `sales.count_3w`, `base`.`sales.count` - `period_2`.`value` AS `sales.count_3w_change`, `period_3`.`value` AS `sales.revenue_prev_day`, `period_4`.`value` AS `sales.revenue_prev_2_months`
FROM `filled` AS `base`
LEFT JOIN `period_0` ON `period_0`.`sales.customers_city` <=> `base`.`sales.customers_city` AND `period_0`.`sales.created_at.month` <=> `base`.`sales.created_at.month` AND `period_0`.`sales.created_at.quarter` <=> `base`.`sales.created_at.quarter`
LEFT JOIN `period_1` ON `period_1`.`sales.customers_city` <=> `base`.`sales.customers_city` AND `period_1`.`sales.created_at.month` <=> `base`.`sales.created_at.month` AND `period_1`.`sales.created_at.quarter` <=> `base`.`sales.created_at.quarter`
LEFT JOIN `period_2` ON `period_2`.`sales.customers_city` <=> `base`.`sales.customers_city` AND `period_2`.`sales.created_at.month` <=> `base`.`sales.created_at.month` AND `period_2`.`sales.created_at.quarter` <=> `base`.`sales.created_at.quarter`
LEFT JOIN `period_3` ON `period_3`.`sales.customers_city` <=> `base`.`sales.customers_city` AND `period_3`.`sales.created_at.month` <=> `base`.`sales.created_at.month` AND `period_3`.`sales.created_at.quarter` <=> `base`.`sales.created_at.quarter`
LEFT JOIN `period_4` ON `period_4`.`sales.customers_city` <=> `base`.`sales.customers_city` AND `period_4`.`sales.created_at.month` <=> `base`.`sales.created_at.month` AND `period_4`.`sales.created_at.quarter` <=> `base`.`sales.created_at.quarter`
ORDER BY `base`.`sales.customers_city` IS NULL, `base`.`sales.customers_city` ASC, `base`.`sales.created_at.month` DESC, `base`.`sales.count` DESC
LIMIT 500 OFFSET 5

-- params: ["Europe/Berlin","Europe/Berlin","Europe/Berlin","acme-corp","acme-corp","2023-12-31T23:00:00.000","2024-06-30T22:00:00.000","2024-01-01T00:00:00.000","2024-06-01T00:00:00.000","Europe/Berlin","Europe/Berlin","Europe/Berlin","acme-corp","acme-corp","2022-12-31T23:00:00.000","2023-06-30T22:00:00.000","Europe/Berlin","Europe/Berlin","Europe/Berlin","acme-corp","acme-corp","2024-06-30T22:00:00.000","2024-12-31T23:00:00.000","Europe/Berlin","Europe/Berlin","Europe/Berlin","acme-corp","acme-corp","2023-12-10T23:00:00.000","2024-06-09T22:00:00.000","Europe/Berlin","Europe/Berlin","Europe/Berlin","acme-corp","acme-corp","2023-12-30T23:00:00.000","2024-06-29T22:00:00.000","Europe/Berlin","Europe/Berlin","Europe/Berlin","acme-corp","acme-corp","2023-10-31T23:00:00.000","2024-04-30T22:00:00.000"]
-- columns: ["sales.customers_city","sales.created_at.month","sales.created_at.quarter","sales.revenue","sales.count","sales.revenue_prev_year","sales.revenue_change","sales.revenue_change_pct","sales.count_next_2_quarters","sales.count_3w","sales.count_3w_change","sales.revenue_prev_day","sales.revenue_prev_2_months"]
-- annotation: {"measures":{"sales.revenue":{"title":"Sales Revenue","shortTitle":"Revenue","type":"number","format":"currency","measureType":"sum"},"sales.count":{"title":"Sales Count","shortTitle":"Count","type":"number","measureType":"count"}},"dimensions":{"sales.customers_city":{"title":"Sales Customers City","shortTitle":"City","type":"string"}},"timeDimensions":{"sales.created_at.month":{"title":"Sales Created At","shortTitle":"Created At","type":"time","granularity":"month"},"sales.created_at.quarter":{"title":"Sales Created At","shortTitle":"Created At","type":"time","granularity":"quarter"}},"periodComparisons":{"sales.revenue_prev_year":{"title":"Sales Revenue (1 year earlier)","shortTitle":"Revenue (1 year earlier)","type":"number","format":"currency","measureType":"sum","measure":"sales.revenue","output":"previous"},"sales.revenue_change":{"title":"Sales Revenue (change vs 1 year earlier)","shortTitle":"Revenue (change vs 1 year earlier)","type":"number","format":"currency","measureType":"sum","measure":"sales.revenue","output":"change"},"sales.revenue_change_pct":{"title":"Sales Revenue (% change vs 1 year earlier)","shortTitle":"Revenue (% change vs 1 year earlier)","type":"number","format":"percent","measureType":"sum","measure":"sales.revenue","output":"percent_change"},"sales.count_next_2_quarters":{"title":"Sales Count (2 quarters later)","shortTitle":"Count (2 quarters later)","type":"number","measureType":"count","measure":"sales.count","output":"previous"},"sales.count_3w":{"title":"Sales Count (3 weeks earlier)","shortTitle":"Count (3 weeks earlier)","type":"number","measureType":"count","measure":"sales.count","output":"previous"},"sales.count_3w_change":{"title":"Sales Count (change vs 3 weeks earlier)","shortTitle":"Count (change vs 3 weeks earlier)","type":"number","measureType":"count","measure":"sales.count","output":"change"},"sales.revenue_prev_day":{"title":"Sales Revenue (1 day earlier)","shortTitle":"Revenue (1 day earlier)","type":"number","format":"currency","measureType":"sum","measure":"sales.revenue","output":"previous"},"sales.revenue_prev_2_months":{"title":"Sales Revenue (2 months earlier)","shortTitle":"Revenue (2 months earlier)","type":"number","format":"currency","measureType":"sum","measure":"sales.revenue","output":"previous"}}}
