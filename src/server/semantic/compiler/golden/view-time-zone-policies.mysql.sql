SELECT * FROM (
  SELECT `customers`.`country` AS `sales.customers_country`,
    CAST(DATE_FORMAT(CASE WHEN CAST(`orders`.`created_at` AS DATETIME(6)) >= TIMESTAMP '2022-12-31 23:00:00.000' AND CAST(`orders`.`created_at` AS DATETIME(6)) < TIMESTAMP '2023-12-31 23:00:00.000' THEN (CAST(`orders`.`created_at` AS DATETIME(6)) + INTERVAL (CASE WHEN CAST(`orders`.`created_at` AS DATETIME(6)) < TIMESTAMP '2023-10-29 01:00:00.000' THEN (CASE WHEN CAST(`orders`.`created_at` AS DATETIME(6)) < TIMESTAMP '2023-03-26 01:00:00.000' THEN 3600000000 ELSE 7200000000 END) ELSE 3600000000 END) MICROSECOND) ELSE CONVERT_TZ(CAST(`orders`.`created_at` AS DATETIME(6)), '+00:00', CAST(? AS CHAR)) END, '%Y-%m-01 00:00:00') AS DATETIME(6)) AS `sales.created_at.month`,
    sum(`orders`.`amount`) AS `sales.revenue`
  FROM `main`.`orders` AS `orders`
  LEFT JOIN `main`.`customers` AS `customers` ON `orders`.customer_id = `customers`.customer_id
  LEFT JOIN `main`.`products` AS `products` ON `orders`.product_id = `products`.product_id
  WHERE (`orders`.`tenant` = ?)
    AND (`customers`.`tenant` = ?)
    AND (`orders`.`status` = ? OR (LOWER(CAST(`products`.`name` AS CHAR)) LIKE LOWER(?) ESCAPE '!'))
    AND (`orders`.`created_at` >= CAST(? AS DATETIME(6)) AND `orders`.`created_at` < CAST(? AS DATETIME(6)))
  GROUP BY 1, 2
) AS `q`
ORDER BY `sales.created_at.month` IS NULL, `sales.created_at.month` ASC
LIMIT 100

-- params: ["Europe/Berlin","acme-corp","acme-corp","completed","Wid%","2022-12-31T23:00:00.000","2023-12-31T23:00:00.000"]
-- columns: ["sales.customers_country","sales.created_at.month","sales.revenue"]
-- annotation: {"measures":{"sales.revenue":{"title":"Sales Revenue","shortTitle":"Revenue","type":"number","format":"currency","measureType":"sum"}},"dimensions":{"sales.customers_country":{"title":"Sales Customers Country","shortTitle":"Country","type":"string"}},"timeDimensions":{"sales.created_at.month":{"title":"Sales Created At","shortTitle":"Created At","type":"time","granularity":"month"}},"periodComparisons":{}}
