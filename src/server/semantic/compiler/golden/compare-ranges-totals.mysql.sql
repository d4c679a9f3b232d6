WITH `baseline_period` AS (
  SELECT count(*) AS `sales.count`
  FROM `main`.`orders` AS `orders`
  WHERE (`orders`.`created_at` >= CAST(? AS DATETIME(6)) AND `orders`.`created_at` < CAST(? AS DATETIME(6)))
),
`current_period` AS (
  SELECT count(*) AS `sales.count`
  FROM `main`.`orders` AS `orders`
  WHERE (`orders`.`created_at` >= CAST(? AS DATETIME(6)) AND `orders`.`created_at` < CAST(? AS DATETIME(6)))
),
`compared` AS (
  SELECT COALESCE(`baseline_period`.`sales.count`, 0) AS `sales.count.baseline`,
    COALESCE(`current_period`.`sales.count`, 0) AS `sales.count.current`,
    COALESCE(`current_period`.`sales.count`, 0) - COALESCE(`baseline_period`.`sales.count`, 0) AS `sales.count.change`,
    (COALESCE(`current_period`.`sales.count`, 0) - COALESCE(`baseline_period`.`sales.count`, 0)) / NULLIF(CAST(COALESCE(`baseline_period`.`sales.count`, 0) AS DOUBLE), 0) AS `sales.count.relativeChange`
  FROM `baseline_period` CROSS JOIN `current_period`
)
SELECT `sales.count.baseline`, `sales.count.current`, `sales.count.change`, `sales.count.relativeChange`
FROM `compared`
ORDER BY `sales.count.current` DESC
LIMIT 10000

-- params: ["2023-01-01T00:00:00.000","2024-01-01T00:00:00.000","2024-01-01T00:00:00.000","2025-01-01T00:00:00.000"]
-- columns: ["sales.count.baseline","sales.count.current","sales.count.change","sales.count.relativeChange"]
-- annotation: {"measures":{},"dimensions":{},"timeDimensions":{},"periodComparisons":{},"compare":{"sales.count.baseline":{"title":"Sales Count (2023)","shortTitle":"Count (2023)","type":"number","measureType":"count","measure":"sales.count","output":"baseline","ranges":{"baseline":{"from":"2023-01-01T00:00:00.000","to":"2024-01-01T00:00:00.000"},"current":{"from":"2024-01-01T00:00:00.000","to":"2025-01-01T00:00:00.000"}}},"sales.count.current":{"title":"Sales Count (2024)","shortTitle":"Count (2024)","type":"number","measureType":"count","measure":"sales.count","output":"current","ranges":{"baseline":{"from":"2023-01-01T00:00:00.000","to":"2024-01-01T00:00:00.000"},"current":{"from":"2024-01-01T00:00:00.000","to":"2025-01-01T00:00:00.000"}}},"sales.count.change":{"title":"Sales Count (change)","shortTitle":"Count (change)","type":"number","measureType":"count","measure":"sales.count","output":"change","ranges":{"baseline":{"from":"2023-01-01T00:00:00.000","to":"2024-01-01T00:00:00.000"},"current":{"from":"2024-01-01T00:00:00.000","to":"2025-01-01T00:00:00.000"}}},"sales.count.relativeChange":{"title":"Sales Count (% change)","shortTitle":"Count (% change)","type":"number","measureType":"count","format":"percent","measure":"sales.count","output":"relativeChange","ranges":{"baseline":{"from":"2023-01-01T00:00:00.000","to":"2024-01-01T00:00:00.000"},"current":{"from":"2024-01-01T00:00:00.000","to":"2025-01-01T00:00:00.000"}}}}}
