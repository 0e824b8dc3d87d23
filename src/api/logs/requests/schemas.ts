/** One row of the API request log, as the list and the fetch answer it. */
import { Type } from 'typebox';
import type { RequestLogRow } from '../../../sql/list-request-logs.ts';

export const RequestLogSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid', description: 'Id of this log row.' }),
    created_at: Type.String({ format: 'date-time', description: 'When the answer was sent.' }),
    method: Type.String({ description: 'HTTP method.' }),
    route: Type.String({ description: 'Route template, e.g. /versioned/accounting/bills/:id (no ids or query values).' }),
    status: Type.Integer({ description: 'HTTP status of the answer.' }),
    duration_ms: Type.Number({ description: 'Time from receiving the request to sending the answer, in milliseconds.' }),
    request_id: Type.String({ description: 'The X-Request-Id of the answer.' }),
    connection_id: Type.Union([Type.String({ format: 'uuid' }), Type.Null()], {
      description: 'The connection the request named (by access_token or id); null when it named none or an unknown one.',
    }),
    error_code: Type.Union([Type.String(), Type.Null()], { description: 'error_code of an error answer; null for a success.' }),
  },
  { additionalProperties: false },
);

export function requestLogView(row: RequestLogRow) {
  return {
    id: row.id,
    created_at: row.created_at,
    method: row.method,
    route: row.route,
    status: row.status,
    duration_ms: Math.round(row.duration_ms * 100) / 100,
    request_id: row.request_id,
    connection_id: row.connection_id,
    error_code: row.error_code,
  };
}
