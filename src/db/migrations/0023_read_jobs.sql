-- Reads asked with response_mode=async (the monthly statements: balance sheets, income statements, cash flow
-- statements) answer an async_response like writes do. Their job is a write_jobs row with operation 'read', finished
-- when it is inserted: GET /jobs/:id serves the answer the synchronous read gave, under the same tenant guard. It is
-- never queued, so no worker or sweeper ever sees it (they look at pending and in_progress jobs only).
ALTER TABLE write_jobs DROP CONSTRAINT write_jobs_operation_check;
ALTER TABLE write_jobs ADD CONSTRAINT write_jobs_operation_check CHECK (operation IN (
  'create', 'update', 'delete', 'apply_credit', 'unapply_credit',
  'upload_attachment', 'send_bank_feed_transactions', 'bank_feed_mapping_link', 'read'));
