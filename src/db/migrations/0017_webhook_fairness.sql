-- Fair webhook delivery (docs/webhooks.md, "Fairness"). The claim visits every endpoint (organisation and
-- environment) with open deliveries by a skip scan and takes each one's oldest due deliveries, up to its share:
-- one index probe per endpoint instead of reading the whole due queue in time order.
CREATE INDEX webhook_deliveries_endpoint_due_idx ON webhook_deliveries (organization_id, environment, next_attempt_at)
  WHERE status IN ('pending', 'delivering');
