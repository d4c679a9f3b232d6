SELECT * FROM (
  SELECT `customers`.`country` AS `sales.customers_country`,
    `products`.`category` AS `sales.products_category`,
    count(*) AS `sales.count`,
    sum(`orders`.`amount`) AS `sales.revenue`,
    avg(`orders`.`amount`) AS `sales.avg_amount`,
    min(`orders`.`amount`) AS `sales.min_amount`,
    max(`orders`.`amount`) AS `sales.max_amount`,
    count(DISTINCT `orders`.`customer_id`) AS `sales.unique_customers`,
    count(CASE WHEN (`orders`.status = 'completed') THEN 1 END) AS `sales.completed_count`,
    (sum(`orders`.`amount`)) / NULLIF((count(*)), 0) AS `sales.average_order_value`,
    count(DISTINCT `customers`.`customer_id`) AS `sales.customers_count`
  FROM `main`.`orders` AS `orders`
  LEFT JOIN `main`.`customers` AS `customers` ON `orders`.customer_id = `customers`.customer_id
  LEFT JOIN `main`.`products` AS `products` ON `orders`.product_id = `products`.product_id
  WHERE (`orders`.`tenant` = ?)
    AND (`customers`.`tenant` = ?)
    AND (`products`.`category` <> ? OR `products`.`category` IS NULL)
  GROUP BY 1, 2
  HAVING sum(`orders`.`amount`) > CAST(? AS DOUBLE)
    AND (count(*) >= CAST(? AS DOUBLE) OR count(DISTINCT `orders`.`customer_id`) < CAST(? AS DOUBLE))
) AS `q`
ORDER BY `sales.products_category` IS NULL, `sales.products_category` ASC, `sales.revenue` DESC
LIMIT 10000

-- params: ["acme-corp","acme-corp","toys",60,1,10]
-- columns: ["sales.customers_country","sales.products_category","sales.count","sales.revenue","sales.avg_amount","sales.min_amount","sales.max_amount","sales.unique_customers","sales.completed_count","sales.average_order_value","sales.customers_count"]
-- annotation: {"measures":{"sales.count":{"title":"Sales Count","shortTitle":"Count","type":"number","measureType":"count"},"sales.revenue":{"title":"Sales Revenue","shortTitle":"Revenue","type":"number","format":"currency","measureType":"sum"},"sales.avg_amount":{"title":"Sales Avg Amount","shortTitle":"Avg Amount","type":"number","measureType":"avg"},"sales.min_amount":{"title":"Sales Min Amount","shortTitle":"Min Amount","type":"number","measureType":"min"},"sales.max_amount":{"title":"Sales Max Amount","shortTitle":"Max Amount","type":"number","measureType":"max"},"sales.unique_customers":{"title":"Sales Unique Customers","shortTitle":"Unique Customers","type":"number","measureType":"count_distinct"},"sales.completed_count":{"title":"Sales Completed Count","shortTitle":"Completed Count","type":"number","measureType":"count"},"sales.average_order_value":{"title":"Sales Average Order Value","shortTitle":"Average Order Value","type":"number","format":"currency","measureType":"number"},"sales.customers_count":{"title":"Sales Customers Count","shortTitle":"Customers Count","type":"number","measureType":"count"}},"dimensions":{"sales.customers_country":{"title":"Sales Customers Country","shortTitle":"Country","type":"string"},"sales.products_category":{"title":"Sales Products Category","shortTitle":"Category","type":"string"}},"timeDimensions":{},"periodComparisons":{}}
