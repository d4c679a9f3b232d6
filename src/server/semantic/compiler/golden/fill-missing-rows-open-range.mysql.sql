WITH RECURSIVE `q` AS (
  SELECT CAST(DATE_FORMAT(CAST(`orders`.`created_at` AS DATETIME(6)), '%Y-%m-%d 00:00:00') AS DATETIME(6)) AS `sales.created_at.day`,
    count(*) AS `sales.count`
  FROM `main`.`orders` AS `orders`
  GROUP BY 1
),
`time_grid` AS (
  SELECT CAST((SELECT min(`sales.created_at.day`) FROM `q`) AS DATETIME(6)) AS `sales.created_at.day`
  UNION ALL
  SELECT `sales.created_at.day` + INTERVAL 1 DAY FROM `time_grid` WHERE `sales.created_at.day` + INTERVAL 1 DAY <= (SELECT max(`sales.created_at.day`) FROM `q`)
),
`grid` AS (
  SELECT * FROM `time_grid`
),
`filled` AS (
  SELECT `grid`.`sales.created_at.day`, COALESCE(`q`.`sales.count`, 0) AS `sales.count`
  FROM `grid` LEFT JOIN `q` ON `q`.`sales.created_at.day` <=> `grid`.`sales.created_at.day`
)
SELECT `base`.*
FROM `filled` AS `base`
ORDER BY `base`.`sales.created_at.day` IS NULL, `base`.`sales.created_at.day` ASC
LIMIT 10000

-- params: []
-- columns: ["sales.created_at.day","sales.count"]
-- annotation: {"measures":{"sales.count":{"title":"Sales Count","shortTitle":"Count","type":"number","measureType":"count"}},"dimensions":{},"timeDimensions":{"sales.created_at.day":{"title":"Sales Created At","shortTitle":"Created At","type":"time","granularity":"day"}},"periodComparisons":{}}
