-- Writes of records kept inside a commerce object with endpoints of their own (a product's variants:
-- POST /commerce/products/{id}/variants, PATCH and DELETE .../variants/{variantId}). Their job is a write on the
-- parent: object_type and target_id are the parent's; src/writes/nested.ts names the kinds.
ALTER TABLE write_jobs DROP CONSTRAINT write_jobs_operation_check;
ALTER TABLE write_jobs ADD CONSTRAINT write_jobs_operation_check CHECK (operation IN (
  'create', 'update', 'delete', 'apply_credit', 'unapply_credit',
  'upload_attachment', 'send_bank_feed_transactions', 'bank_feed_mapping_link', 'read',
  'create_nested', 'update_nested', 'delete_nested'));
