SELECT `orders`.`tenant` AS `d_orders__tenant`,
  (`orders`.customer_id) AS `k_customer_count`,
  `customers`.`tenant` AS `d_customers__tenant`,
  `customers`.`country` AS `d_customers__country`,
  CAST(DATE_FORMAT(CAST(`orders`.`created_at` AS DATETIME(6)), '%Y-%m-01 00:00:00') AS DATETIME(6)) AS `t_month`,
  count(*) AS `m_count`,
  sum(`orders`.`amount`) AS `m_revenue`
FROM `orders` AS `orders`
LEFT JOIN `customers` AS `customers` ON `orders`.customer_id = `customers`.customer_id
GROUP BY 1, 2, 3, 4, 5
