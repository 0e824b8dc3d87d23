/** Every dashboard page, each registering its own routes (pages, fragments, form actions). */
import type { FastifyInstance } from 'fastify';
import { registerUsersPage } from './users.ts';
import { registerAuditPage } from './audit.ts';
import { registerAccountPage } from './account.ts';

export const DASHBOARD_PAGES: readonly ((app: FastifyInstance) => void)[] = [registerUsersPage, registerAuditPage, registerAccountPage];
