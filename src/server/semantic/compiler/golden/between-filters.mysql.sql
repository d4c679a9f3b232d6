SELECT * FROM (
  SELECT `orders`.`status` AS `sales.status`,
    sum(`orders`.`amount`) AS `sales.revenue`
  FROM `main`.`orders` AS `orders`
  WHERE (`orders`.`tenant` = ?)
    AND `orders`.`amount` BETWEEN CAST(? AS DOUBLE) AND CAST(? AS DOUBLE)
    AND (`orders`.`order_id` NOT BETWEEN CAST(? AS DOUBLE) AND CAST(? AS DOUBLE) OR `orders`.`order_id` IS NULL)
  GROUP BY 1
  HAVING sum(`orders`.`amount`) BETWEEN CAST(? AS DOUBLE) AND CAST(? AS DOUBLE)
    AND (count(*) NOT BETWEEN CAST(? AS DOUBLE) AND CAST(? AS DOUBLE) OR count(*) IS NULL)
    AND avg(`orders`.`amount`) = CAST(? AS DOUBLE)
    AND (max(`orders`.`amount`) <> CAST(? AS DOUBLE) OR max(`orders`.`amount`) IS NULL)
) AS `q`
ORDER BY `sales.revenue` DESC
LIMIT 10000

-- params: ["acme-corp",5,30,3,4,10,100,2,2,10,11]
-- columns: ["sales.status","sales.revenue"]
-- annotation: {"measures":{"sales.revenue":{"title":"Sales Revenue","shortTitle":"Revenue","type":"number","format":"currency","measureType":"sum"}},"dimensions":{"sales.status":{"title":"Sales Status","shortTitle":"Status","type":"string"}},"timeDimensions":{},"periodComparisons":{}}
