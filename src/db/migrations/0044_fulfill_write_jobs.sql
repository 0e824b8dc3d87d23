-- Commerce fulfillments (POST /commerce/orders/:id/fulfillments) are write jobs of their own kind: the order is the
-- target, and the job records a shipment of some or all of its lines. The list keeps 0043's nested writes.
ALTER TABLE write_jobs DROP CONSTRAINT write_jobs_operation_check;
ALTER TABLE write_jobs ADD CONSTRAINT write_jobs_operation_check CHECK (operation IN (
  'create', 'update', 'delete', 'apply_credit', 'unapply_credit',
  'upload_attachment', 'send_bank_feed_transactions', 'bank_feed_mapping_link', 'fulfill', 'read',
  'create_nested', 'update_nested', 'delete_nested'));
