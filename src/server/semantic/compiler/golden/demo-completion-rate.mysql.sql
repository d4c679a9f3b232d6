SELECT * FROM (
  SELECT `customers`.`country` AS `sales.customers_country`,
    CAST((count(CASE WHEN (`orders`.status = 'completed') THEN 1 END)) AS DOUBLE) / NULLIF((count(*)), 0) AS `sales.completion_rate`,
    (sum(`orders`.`amount`)) / NULLIF((count(*)), 0) AS `sales.average_order_value`,
    CAST((count(CASE WHEN (`orders`.status = 'completed') AND ((`products`.`category` = CAST(? AS CHAR))) THEN 1 END)) AS DOUBLE) / NULLIF((count(CASE WHEN ((`products`.`category` = CAST(? AS CHAR))) THEN 1 END)), 0) AS `sales.books_completion`
  FROM `orders` AS `orders`
  LEFT JOIN `products` AS `products` ON `orders`.product_id = `products`.product_id
  LEFT JOIN `customers` AS `customers` ON `orders`.customer_id = `customers`.customer_id
  WHERE (`orders`.`tenant` = ?)
    AND (`customers`.`tenant` = ?)
  GROUP BY 1
) AS `q`
ORDER BY `sales.completion_rate` DESC
LIMIT 10000

-- params: ["Books","Books","acme-corp","acme-corp"]
