-- Statistics on the enum fields that list filters compare (docs/filtering.md: status, account_type, category).
-- Their values are skewed (most bills are paid, few are draft). Without statistics on the expression the planner
-- assumes that any value matches 0.5% of the rows. For a filtered first page it then prefers to read every record of
-- the type and sort them over walking the sort index until the page is full. Measured on the read benchmark's store
-- (677 bills in a connection, 78% of them paid): 695 buffers and 52 ms (cold) against 121 buffers and 2 ms.
-- Expression statistics need PostgreSQL 14 or later.
CREATE STATISTICS records_status_stats ON ((data ->> 'status')) FROM records;
CREATE STATISTICS records_account_type_stats ON ((data ->> 'account_type')) FROM records;
CREATE STATISTICS records_category_stats ON ((data ->> 'category')) FROM records;
-- Filled now, not at the next automatic analyze, which a large, settled store may not see for a long time.
ANALYZE records;
