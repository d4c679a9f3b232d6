WITH `q` AS (
  SELECT CAST(DATE_FORMAT(CAST(`orders`.`created_at` AS DATETIME(6)), '%Y-01-01 00:00:00') AS DATETIME(6)) AS `sales.created_at.year`,
    count(*) AS `sales.count`
  FROM `main`.`orders` AS `orders`
  GROUP BY 1
),
`period_0` AS (
  SELECT CAST(DATE_FORMAT(CAST(`orders`.`created_at` AS DATETIME(6)) + INTERVAL 1 YEAR, '%Y-01-01 00:00:00') AS DATETIME(6)) AS `sales.created_at.year`,
    count(*) AS `value`
  FROM `main`.`orders` AS `orders`
  GROUP BY 1
)
SELECT `base`.*, `period_0`.`value` AS `sales.count_prev_year`
FROM `q` AS `base`
LEFT JOIN `period_0` ON `period_0`.`sales.created_at.year` <=> `base`.`sales.created_at.year`
ORDER BY `base`.`sales.created_at.year` IS NULL, `base`.`sales.created_at.year` ASC
LIMIT 10000

-- params: []
-- columns: ["sales.created_at.year","sales.count","sales.count_prev_year"]
-- annotation: {"measures":{"sales.count":{"title":"Sales Count","shortTitle":"Count","type":"number","measureType":"count"}},"dimensions":{},"timeDimensions":{"sales.created_at.year":{"title":"Sales Created At","shortTitle":"Created At","type":"time","granularity":"year"}},"periodComparisons":{"sales.count_prev_year":{"title":"Sales Count (1 year earlier)","shortTitle":"Count (1 year earlier)","type":"number","measureType":"count","measure":"sales.count","output":"previous"}}}
