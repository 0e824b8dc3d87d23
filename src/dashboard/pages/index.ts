/** Every dashboard page, each registering its own routes (pages, fragments, form actions). */
import type { FastifyInstance } from 'fastify';
import { registerOverview } from './overview.ts';
import { registerExplorer } from './explorer.ts';

export const DASHBOARD_PAGES: readonly ((app: FastifyInstance) => void)[] = [registerOverview, registerExplorer];
