-- The case search's estimates (docs/decisions.md, 751). PostgreSQL estimates how many cases a
-- "contains" pattern matches by trying it on a sample of the column's values kept by ANALYZE (101
-- of them by default). A name that 1.7 % of the cases hold ("shah" at 100,000) fell in or out of
-- that sample by chance: when it seemed rare, the planner read and sorted all 1,678 matches instead
-- of walking the newest cases until a page was full, and the search took three times as long until
-- the next analyse. Analysed 40 times over, that happened 9 times with 101 values and 3 times with
-- 301; each search's planning reads the larger sample (about 0.1 ms more). The next analyse (the
-- server's autovacuum, or the embedded database's upkeep) takes the larger sample.
ALTER TABLE "applications" ALTER COLUMN "client_names" SET STATISTICS 300;--> statement-breakpoint
ALTER TABLE "applications" ALTER COLUMN "case_ref" SET STATISTICS 300;
