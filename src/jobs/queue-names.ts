/** Every queue name, in one place. */
export const QUEUES = {
  maintenance: 'maintenance',
  sync: 'sync',
} as const;
