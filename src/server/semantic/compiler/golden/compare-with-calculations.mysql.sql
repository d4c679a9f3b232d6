WITH `baseline_period` AS (
  SELECT `customers`.`country` AS `sales.customers_country`,
    sum(`orders`.`amount`) AS `sales.revenue`
  FROM `main`.`orders` AS `orders`
  LEFT JOIN `main`.`customers` AS `customers` ON `orders`.customer_id = `customers`.customer_id
  WHERE (`orders`.`tenant` = ?)
    AND (`customers`.`tenant` = ?)
    AND (`orders`.`created_at` >= CAST(? AS DATETIME(6)) AND `orders`.`created_at` < CAST(? AS DATETIME(6)))
  GROUP BY 1
),
`current_period` AS (
  SELECT `customers`.`country` AS `sales.customers_country`,
    sum(`orders`.`amount`) AS `sales.revenue`
  FROM `main`.`orders` AS `orders`
  LEFT JOIN `main`.`customers` AS `customers` ON `orders`.customer_id = `customers`.customer_id
  WHERE (`orders`.`tenant` = ?)
    AND (`customers`.`tenant` = ?)
    AND (`orders`.`created_at` >= CAST(? AS DATETIME(6)) AND `orders`.`created_at` < CAST(? AS DATETIME(6)))
  GROUP BY 1
),
`period_keys` AS (
  SELECT `sales.customers_country` FROM `baseline_period`
  UNION
  SELECT `sales.customers_country` FROM `current_period`
),
`compared` AS (
  SELECT `period_keys`.`sales.customers_country`,
    COALESCE(`baseline_period`.`sales.revenue`, 0) AS `sales.revenue.baseline`,
    COALESCE(`current_period`.`sales.revenue`, 0) AS `sales.revenue.current`,
    COALESCE(`current_period`.`sales.revenue`, 0) - COALESCE(`baseline_period`.`sales.revenue`, 0) AS `sales.revenue.change`,
    (COALESCE(`current_period`.`sales.revenue`, 0) - COALESCE(`baseline_period`.`sales.revenue`, 0)) / NULLIF(CAST(COALESCE(`baseline_period`.`sales.revenue`, 0) AS DOUBLE), 0) AS `sales.revenue.relativeChange`
  FROM `period_keys`
  LEFT JOIN `baseline_period` ON `baseline_period`.`sales.customers_country` <=> `period_keys`.`sales.customers_country`
  LEFT JOIN `current_period` ON `current_period`.`sales.customers_country` <=> `period_keys`.`sales.customers_country`
),
`calculated` AS (
  SELECT `compared`.*,
    CAST(`sales.revenue.change` AS DOUBLE) / NULLIF(sum(CAST(`sales.revenue.change` AS DOUBLE)) OVER (), 0) AS `sales.revenue.change.percentOfTotal`
  FROM `compared`
)
SELECT `sales.customers_country`, `sales.revenue.baseline`, `sales.revenue.current`, `sales.revenue.change`, `sales.revenue.relativeChange`, `sales.revenue.change.percentOfTotal`
FROM `calculated`
ORDER BY `sales.revenue.current` DESC
LIMIT 10000

-- params: ["globex-inc","globex-inc","2023-01-01T00:00:00.000","2024-01-01T00:00:00.000","globex-inc","globex-inc","2024-01-01T00:00:00.000","2025-01-01T00:00:00.000"]
-- columns: ["sales.customers_country","sales.revenue.baseline","sales.revenue.current","sales.revenue.change","sales.revenue.relativeChange","sales.revenue.change.percentOfTotal"]
-- annotation: {"measures":{},"dimensions":{"sales.customers_country":{"title":"Sales Customers Country","shortTitle":"Country","type":"string"}},"timeDimensions":{},"periodComparisons":{},"compare":{"sales.revenue.baseline":{"title":"Sales Revenue (2023)","shortTitle":"Revenue (2023)","type":"number","format":"currency","measureType":"sum","measure":"sales.revenue","output":"baseline","ranges":{"baseline":{"from":"2023-01-01T00:00:00.000","to":"2024-01-01T00:00:00.000"},"current":{"from":"2024-01-01T00:00:00.000","to":"2025-01-01T00:00:00.000"}}},"sales.revenue.current":{"title":"Sales Revenue (2024)","shortTitle":"Revenue (2024)","type":"number","format":"currency","measureType":"sum","measure":"sales.revenue","output":"current","ranges":{"baseline":{"from":"2023-01-01T00:00:00.000","to":"2024-01-01T00:00:00.000"},"current":{"from":"2024-01-01T00:00:00.000","to":"2025-01-01T00:00:00.000"}}},"sales.revenue.change":{"title":"Sales Revenue (change)","shortTitle":"Revenue (change)","type":"number","format":"currency","measureType":"sum","measure":"sales.revenue","output":"change","ranges":{"baseline":{"from":"2023-01-01T00:00:00.000","to":"2024-01-01T00:00:00.000"},"current":{"from":"2024-01-01T00:00:00.000","to":"2025-01-01T00:00:00.000"}}},"sales.revenue.relativeChange":{"title":"Sales Revenue (% change)","shortTitle":"Revenue (% change)","type":"number","format":"percent","measureType":"sum","measure":"sales.revenue","output":"relativeChange","ranges":{"baseline":{"from":"2023-01-01T00:00:00.000","to":"2024-01-01T00:00:00.000"},"current":{"from":"2024-01-01T00:00:00.000","to":"2025-01-01T00:00:00.000"}}}},"calculations":{"sales.revenue.change.percentOfTotal":{"title":"Sales Revenue change (% of total)","shortTitle":"Revenue change (% of total)","type":"number","format":"percent","measure":"sales.revenue.change","calculation":"percentOfTotal","within":[]}}}
