-- A deployment may be created without a data source; the set-up wizard's data-source step gives it (written by hand; applied in journal order).
ALTER TABLE "deployments" ALTER COLUMN "data_source" DROP NOT NULL;
