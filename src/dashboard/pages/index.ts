/** Every dashboard page, each registering its own routes (pages, fragments, form actions). */
import type { FastifyInstance } from 'fastify';
import { registerUsersPage } from './users.ts';
import { registerAuditPage } from './audit.ts';
import { registerAccountPage } from './account.ts';
import { registerWebhooksPage } from './webhooks.ts';
import { registerApiKeysPage } from './api-keys.ts';
import { registerPlatformsPage } from './platforms.ts';

export const DASHBOARD_PAGES: readonly ((app: FastifyInstance) => void)[] = [
  registerWebhooksPage,
  registerApiKeysPage,
  registerPlatformsPage,
  registerUsersPage,
  registerAuditPage,
  registerAccountPage,
];
