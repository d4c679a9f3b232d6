SELECT * FROM (
  SELECT `deals`.`stage` AS `deals.stage`,
    (CAST(count(CASE WHEN (`deals`.stage = 'won') THEN 1 END) AS DOUBLE) / NULLIF(nullif(count(DISTINCT `accounts`.`id`), CAST(? AS DOUBLE)), 0)) AS `accounts.won_share`,
    (count(DISTINCT CASE WHEN ((`accounts`.`name` <> CAST(? AS CHAR))) THEN `accounts`.`id` END) + count(DISTINCT CASE WHEN (`accounts`.`owner_email` IS NOT NULL) THEN `accounts`.`name` END)) AS `accounts.named`
  FROM (SELECT * FROM raw.accounts WHERE deleted_at IS NULL) AS `accounts`
  LEFT JOIN `crm`.`deals` AS `deals` ON `accounts`.id = `deals`.account_id
  WHERE (`accounts`.`owner_email` IS NOT NULL AND (`accounts`.`name` <> ? OR `accounts`.`name` IS NULL))
  GROUP BY 1
) AS `q`
ORDER BY `accounts.won_share` DESC
LIMIT 10000

-- params: [0,"Initech","support"]
-- columns: ["deals.stage","accounts.won_share","accounts.named"]
-- annotation: {"measures":{"accounts.won_share":{"title":"Accounts Won Share","shortTitle":"Won Share","type":"number","measureType":"number"},"accounts.named":{"title":"Accounts Named","shortTitle":"Named","type":"number","measureType":"number"}},"dimensions":{"deals.stage":{"title":"Deals Stage","shortTitle":"Stage","type":"string"}},"timeDimensions":{},"periodComparisons":{}}
