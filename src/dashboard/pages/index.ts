/** Every dashboard page, each registering its own routes (pages, fragments, form actions). */
import type { FastifyInstance } from 'fastify';
import { registerOverview } from './overview.ts';
import { registerConnectionsPages } from './connections.ts';
import { registerExplorer } from './explorer.ts';
import { registerUsersPage } from './users.ts';
import { registerAuditPage } from './audit.ts';
import { registerRequestLogsPage } from './request-logs.ts';
import { registerAccountPage } from './account.ts';
import { registerWebhooksPage } from './webhooks.ts';
import { registerApiKeysPage } from './api-keys.ts';
import { registerPlatformsPage } from './platforms.ts';

export const DASHBOARD_PAGES: readonly ((app: FastifyInstance) => void)[] = [
  registerOverview,
  registerConnectionsPages,
  registerExplorer,
  registerWebhooksPage,
  registerApiKeysPage,
  registerPlatformsPage,
  registerUsersPage,
  registerAuditPage,
  registerRequestLogsPage,
  registerAccountPage,
];
