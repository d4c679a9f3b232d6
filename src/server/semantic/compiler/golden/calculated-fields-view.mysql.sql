SELECT * FROM (
  SELECT upper(coalesce(`orders`.`status`, CAST(? AS CHAR))) AS `sales.state`,
    (CAST(count(CASE WHEN ((`orders`.`status` = CAST(? AS CHAR))) THEN 1 END) AS DOUBLE) / NULLIF(count(*), 0)) AS `sales.completed_share`,
    (sum(`orders`.`amount`) - coalesce(sum(CASE WHEN ((`orders`.`status` IN (CAST(? AS CHAR), CAST(? AS CHAR)))) THEN `orders`.`amount` END), CAST(? AS DOUBLE))) AS `sales.unshipped_revenue`,
    round(CAST(sum(CASE WHEN ((`orders`.`amount` >= CAST(? AS DOUBLE)) AND (NOT (`orders`.amount >= 50))) THEN (`orders`.`amount` * CAST(? AS DOUBLE)) END) AS DOUBLE), CAST(? AS SIGNED)) AS `sales.big_revenue`
  FROM `main`.`orders` AS `orders`
  LEFT JOIN `main`.`customers` AS `customers` ON `orders`.customer_id = `customers`.customer_id
  WHERE (`orders`.`tenant` = ?)
    AND (`customers`.`tenant` = ?)
    AND (((`orders`.`amount` >= CAST(? AS DOUBLE)) AND (`orders`.`status` = CAST(? AS CHAR))) OR (`customers`.`country` IS NULL)) = (?)
  GROUP BY 1
  HAVING (CAST(count(CASE WHEN ((`orders`.`status` = CAST(? AS CHAR))) THEN 1 END) AS DOUBLE) / NULLIF(count(*), 0)) >= CAST(? AS DOUBLE)
) AS `q`
ORDER BY `sales.completed_share` DESC
LIMIT 10000

-- params: ["none","completed","shipped","it's",0,20,1.2,2,"acme-corp","acme-corp",20,"completed",false,"completed",0.5]
-- columns: ["sales.state","sales.completed_share","sales.unshipped_revenue","sales.big_revenue"]
-- annotation: {"measures":{"sales.completed_share":{"title":"Completed share","shortTitle":"Completed share","type":"number","format":"percent","measureType":"number"},"sales.unshipped_revenue":{"title":"Sales Unshipped Revenue","shortTitle":"Unshipped Revenue","type":"number","format":"currency","measureType":"number"},"sales.big_revenue":{"title":"Sales Big Revenue","shortTitle":"Big Revenue","type":"number","measureType":"number"}},"dimensions":{"sales.state":{"title":"Sales State","shortTitle":"State","type":"string"}},"timeDimensions":{},"periodComparisons":{}}
