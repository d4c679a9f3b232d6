WITH RECURSIVE `q` AS (
  SELECT `products`.`category` AS `sales.products_category`,
    `products`.`name` AS `sales.products_name`,
    CAST(DATE_FORMAT(CAST(`orders`.`created_at` AS DATETIME(6)), '%Y-%m-01 00:00:00') AS DATETIME(6)) AS `sales.created_at.month`,
    count(*) AS `sales.count`,
    sum(`orders`.`amount`) AS `sales.revenue`
  FROM `main`.`orders` AS `orders`
  LEFT JOIN `main`.`products` AS `products` ON `orders`.product_id = `products`.product_id
  WHERE (`orders`.`tenant` = ?)
    AND (`orders`.`created_at` >= CAST(? AS DATETIME(6)) AND `orders`.`created_at` < CAST(? AS DATETIME(6)))
  GROUP BY 1, 2, 3
),
`time_grid` AS (
  SELECT CAST(CAST(? AS DATETIME(6)) AS DATETIME(6)) AS `sales.created_at.month`
  UNION ALL
  SELECT `sales.created_at.month` + INTERVAL 1 MONTH FROM `time_grid` WHERE `sales.created_at.month` + INTERVAL 1 MONTH <= CAST(? AS DATETIME(6))
),
`dimension_values` AS (
  SELECT DISTINCT `sales.products_category`, `sales.products_name` FROM `q`
),
`grid` AS (
  SELECT * FROM `time_grid` CROSS JOIN `dimension_values`
),
`filled` AS (
  SELECT `grid`.`sales.products_category`, `grid`.`sales.products_name`, `grid`.`sales.created_at.month`, COALESCE(`q`.`sales.count`, 0) AS `sales.count`, COALESCE(`q`.`sales.revenue`, 0) AS `sales.revenue`
  FROM `grid` LEFT JOIN `q` ON `q`.`sales.created_at.month` <=> `grid`.`sales.created_at.month` AND `q`.`sales.products_category` <=> `grid`.`sales.products_category` AND `q`.`sales.products_name` <=> `grid`.`sales.products_name`
),
`calculated` AS (
  SELECT `filled`.*,
    CAST(`sales.revenue` AS DOUBLE) / NULLIF(sum(CAST(`sales.revenue` AS DOUBLE)) OVER (), 0) AS `sales.revenue.percentOfTotal`,
    CAST(`sales.revenue` AS DOUBLE) / NULLIF(sum(CAST(`sales.revenue` AS DOUBLE)) OVER (PARTITION BY `sales.products_category`), 0) AS `sales.revenue_share_in_category`,
    CAST(sum(`sales.revenue`) OVER (ORDER BY `sales.created_at.month` IS NULL, `sales.created_at.month` ASC, `sales.products_category` IS NULL, `sales.products_category` ASC, `sales.products_name` IS NULL, `sales.products_name` ASC ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS DOUBLE) AS `sales.revenue.runningTotal`,
    CAST(rank() OVER (PARTITION BY `sales.created_at.month` ORDER BY `sales.count` IS NULL, `sales.count` ASC) AS SIGNED) AS `sales.count.rank`,
    row_number() OVER (PARTITION BY `sales.products_category` ORDER BY `sales.count` DESC, `sales.products_name` IS NULL, `sales.products_name` ASC, `sales.created_at.month` IS NULL, `sales.created_at.month` ASC) AS `group_row`
  FROM `filled`
)
SELECT `sales.products_category`, `sales.products_name`, `sales.created_at.month`, `sales.count`, `sales.revenue`, `sales.revenue.percentOfTotal`, `sales.revenue_share_in_category`, `sales.revenue.runningTotal`, `sales.count.rank`
FROM `calculated`
WHERE `group_row` <= 2
ORDER BY `sales.revenue_share_in_category` DESC
LIMIT 10000

-- params: ["acme-corp","2024-01-01T00:00:00.000","2025-01-01T00:00:00.000","2024-01-01T00:00:00.000","2024-12-01T00:00:00.000"]
-- columns: ["sales.products_category","sales.products_name","sales.created_at.month","sales.count","sales.revenue","sales.revenue.percentOfTotal","sales.revenue_share_in_category","sales.revenue.runningTotal","sales.count.rank"]
-- annotation: {"measures":{"sales.count":{"title":"Sales Count","shortTitle":"Count","type":"number","measureType":"count"},"sales.revenue":{"title":"Sales Revenue","shortTitle":"Revenue","type":"number","format":"currency","measureType":"sum"}},"dimensions":{"sales.products_category":{"title":"Sales Products Category","shortTitle":"Category","type":"string"},"sales.products_name":{"title":"Sales Products Name","shortTitle":"Name","type":"string"}},"timeDimensions":{"sales.created_at.month":{"title":"Sales Created At","shortTitle":"Created At","type":"time","granularity":"month"}},"periodComparisons":{},"calculations":{"sales.revenue.percentOfTotal":{"title":"Sales Revenue (% of total)","shortTitle":"Revenue (% of total)","type":"number","format":"percent","measure":"sales.revenue","calculation":"percentOfTotal","within":[]},"sales.revenue_share_in_category":{"title":"Sales Revenue (% of total within sales.products_category)","shortTitle":"Revenue (% of total within sales.products_category)","type":"number","format":"percent","measure":"sales.revenue","calculation":"percentOfTotal","within":["sales.products_category"]},"sales.revenue.runningTotal":{"title":"Sales Revenue (running total)","shortTitle":"Revenue (running total)","type":"number","format":"currency","measureType":"sum","measure":"sales.revenue","calculation":"runningTotal","within":[]},"sales.count.rank":{"title":"Sales Count (rank within sales.created_at.month)","shortTitle":"Count (rank within sales.created_at.month)","type":"number","measure":"sales.count","calculation":"rank","within":["sales.created_at.month"]}}}
