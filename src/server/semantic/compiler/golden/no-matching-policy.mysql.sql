SELECT * FROM (
  SELECT `regions`.`code` AS `regions.code`,
    count(*) AS `accounts.count`
  FROM (SELECT * FROM raw.accounts WHERE deleted_at IS NULL) AS `accounts`
  LEFT JOIN `crm`.`regions` AS `regions` ON `accounts`.region_id = `regions`.id
  WHERE FALSE
    AND (FALSE)
  GROUP BY 1
) AS `q`
ORDER BY `accounts.count` DESC
LIMIT 10000

-- params: []
-- columns: ["regions.code","accounts.count"]
-- annotation: {"measures":{"accounts.count":{"title":"Accounts Count","shortTitle":"Count","type":"number","measureType":"count"}},"dimensions":{"regions.code":{"title":"Regions Code","shortTitle":"Code","type":"string"}},"timeDimensions":{},"periodComparisons":{}}
