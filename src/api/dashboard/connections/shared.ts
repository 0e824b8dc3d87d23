/** What the dashboard's connection endpoints share: the session's tenant, its own connection, page cursors. */
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { requireDashboardUser, sessionEnvironment } from '../../../http/session-auth.ts';
import { connectionForId } from '../../../connections/connections.ts';
import type { ConnectionRecord } from '../../../connections/types.ts';
import { decodeCursor, type KeysetPosition } from '../../../http/keyset-cursor.ts';
import type { Tenant } from '../../../tenants/types.ts';

/** The session's organisation in the environment it works in: every query of these endpoints is scoped by it. */
export function sessionTenantOf(request: FastifyRequest): Tenant {
  const user = requireDashboardUser(request);
  return { organizationId: user.organizationId, environment: sessionEnvironment(request) };
}

/** The session's own connection (another organisation's or environment's answers 404 RESOURCE_NOT_FOUND, as an unknown one). */
export async function ownConnection(request: FastifyRequest, id: string): Promise<ConnectionRecord> {
  return connectionForId(request.server.services.pool, sessionTenantOf(request), id);
}

export const CursorQuery = Type.Optional(
  Type.String({ maxLength: 512, description: 'next_cursor of the previous page, with the same filters; empty or omitted starts at the newest.' }),
);

export function positionOf(cursor: string | undefined): KeysetPosition | null {
  return cursor === undefined || cursor === '' ? null : decodeCursor(cursor);
}

export const iso = (d: Date | null): string | null => (d === null ? null : d.toISOString());
