/** Tables of the admin feature; re-exported by ../schema.ts so drizzle and the migrations see them. */
export {};
