/** Every dashboard page, each registering its own routes (pages, fragments, form actions). */
import type { FastifyInstance } from 'fastify';
import { registerConnectionsPages } from './connections.ts';

export const DASHBOARD_PAGES: readonly ((app: FastifyInstance) => void)[] = [registerConnectionsPages];
