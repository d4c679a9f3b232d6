SELECT * FROM (
  SELECT `customers`.`country` AS `sales.customers_country`,
    MONTH(CAST(`orders`.`created_at` AS DATETIME(6))) AS `sales.created_at.monthOfYear`,
    QUARTER(CAST(`orders`.`created_at` AS DATETIME(6))) AS `sales.created_at.quarterOfYear`,
    WEEK(CAST(`orders`.`created_at` AS DATETIME(6)), 3) AS `sales.created_at.weekOfYear`,
    DAYOFMONTH(CAST(`orders`.`created_at` AS DATETIME(6))) AS `sales.created_at.dayOfMonth`,
    CAST(DATE_FORMAT(CAST(`orders`.`created_at` AS DATETIME(6)), '%Y-01-01 00:00:00') AS DATETIME(6)) AS `sales.created_at.year`,
    count(*) AS `sales.count`
  FROM `main`.`orders` AS `orders`
  LEFT JOIN `main`.`customers` AS `customers` ON `orders`.customer_id = `customers`.customer_id
  GROUP BY 1, 2, 3, 4, 5, 6
) AS `q`
ORDER BY `sales.created_at.monthOfYear` DESC
LIMIT 10000

-- params: []
-- columns: ["sales.customers_country","sales.created_at.monthOfYear","sales.created_at.quarterOfYear","sales.created_at.weekOfYear","sales.created_at.dayOfMonth","sales.created_at.year","sales.count"]
-- annotation: {"measures":{"sales.count":{"title":"Sales Count","shortTitle":"Count","type":"number","measureType":"count"}},"dimensions":{"sales.customers_country":{"title":"Sales Customers Country","shortTitle":"Country","type":"string"},"sales.created_at.monthOfYear":{"title":"Sales Created At (month of year)","shortTitle":"Created At (month of year)","type":"number","timePart":"monthOfYear"},"sales.created_at.quarterOfYear":{"title":"Sales Created At (quarter of year)","shortTitle":"Created At (quarter of year)","type":"number","timePart":"quarterOfYear"},"sales.created_at.weekOfYear":{"title":"Sales Created At (week of year)","shortTitle":"Created At (week of year)","type":"number","timePart":"weekOfYear"},"sales.created_at.dayOfMonth":{"title":"Sales Created At (day of month)","shortTitle":"Created At (day of month)","type":"number","timePart":"dayOfMonth"}},"timeDimensions":{"sales.created_at.year":{"title":"Sales Created At","shortTitle":"Created At","type":"time","granularity":"year"}},"periodComparisons":{}}
