-- Issue 33: the W3C trace context (traceparent, tracestate) of the span an event was emitted in (a sync or write job,
-- an API request), so each webhook delivery attempt of the event continues that trace. Null when traces are off.
ALTER TABLE events ADD COLUMN trace_context jsonb;
