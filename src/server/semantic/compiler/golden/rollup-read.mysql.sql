SELECT * FROM (
  SELECT `orders_daily`.`d_customers__country` AS `sales.customers_country`,
    CAST(DATE_FORMAT(CAST(`orders_daily`.`t_day` AS DATETIME(6)), '%Y-%m-01 00:00:00') AS DATETIME(6)) AS `sales.created_at.month`,
    sum(`orders_daily`.`m_revenue`) AS `sales.revenue`,
    COALESCE(SUM(`orders_daily`.m_count), 0) AS `sales.count`,
    (sum(`orders_daily`.`m_revenue`)) / NULLIF((COALESCE(SUM(`orders_daily`.m_count), 0)), 0) AS `sales.average_order_value`
  FROM `svc_rollups`.`orders_daily_v1` AS `orders_daily`
  WHERE (`orders_daily`.`d_orders__tenant` = ?)
    AND (`orders_daily`.`d_customers__tenant` = ?)
    AND `orders_daily`.`d_orders__status` IN (?, ?)
    AND (`orders_daily`.`t_day` >= CAST(? AS DATETIME(6)) AND `orders_daily`.`t_day` < CAST(? AS DATETIME(6)))
  GROUP BY 1, 2
  HAVING sum(`orders_daily`.`m_revenue`) > CAST(? AS DOUBLE)
) AS `q`
ORDER BY `sales.revenue` DESC
LIMIT 50

-- params: ["acme-corp","acme-corp","completed","shipped","2025-01-01T00:00:00.000","2025-07-01T00:00:00.000",1000]
-- rollup: orders_daily
