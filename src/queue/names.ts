/** Every queue name, in one place. */
export const QUEUES = {
  maintenance: 'maintenance',
  sync: 'sync',
  syncScheduler: 'sync-scheduler',
  write: 'write',
} as const;
