/** The dashboard's people: who is signed in, the organisation's users and their invitations, the audit log. */
import type { Endpoint } from '../../../http/contract.ts';
import session from './session.ts';
import list from './list.ts';
import invite from './invite.ts';
import setRole from './set-role.ts';
import remove from './remove.ts';
import auditLog from './audit-log.ts';

export const userEndpoints: Endpoint[] = [session, list, invite, setRole, remove, auditLog];
