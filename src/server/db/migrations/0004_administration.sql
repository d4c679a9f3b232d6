-- administration: tables and columns of this feature (written by hand; applied in journal order).
SELECT 1;
