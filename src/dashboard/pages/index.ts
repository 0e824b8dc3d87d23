/** Every dashboard page, each registering its own routes (pages, fragments, form actions). */
import type { FastifyInstance } from 'fastify';
import { registerWebhooksPage } from './webhooks.ts';
import { registerApiKeysPage } from './api-keys.ts';
import { registerPlatformsPage } from './platforms.ts';

export const DASHBOARD_PAGES: readonly ((app: FastifyInstance) => void)[] = [registerWebhooksPage, registerApiKeysPage, registerPlatformsPage];
