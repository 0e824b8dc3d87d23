import { describe, expect, it } from 'vitest';
import type { ServiceError } from '../errors/catalogue.ts';
import { assertReadable } from './readiness.ts';
import type { ConnectionRecord } from './types.ts';

const base = { status: 'active', readyAt: new Date(), disableMessage: null } as const;
const code = (c: Pick<ConnectionRecord, 'status' | 'readyAt' | 'disableMessage'>, force: boolean) => {
  try {
    assertReadable(c as ConnectionRecord, force);
    return 'ok';
  } catch (error) {
    return (error as ServiceError).code;
  }
};

describe('data readiness', () => {
  it('answers PRODUCT_NOT_READY before the initial sync finished unless force_fetch', () => {
    expect(code({ ...base, status: 'not_ready', readyAt: null }, false)).toBe('PRODUCT_NOT_READY');
    expect(code({ ...base, status: 'not_ready', readyAt: null }, true)).toBe('ok');
    expect(code(base, false)).toBe('ok');
  });

  it('answers NEEDS_UPDATE and CONNECTION_DISABLED by status', () => {
    expect(code({ ...base, status: 'needs_reauth' }, false)).toBe('NEEDS_UPDATE');
    expect(code({ ...base, status: 'needs_reauth' }, true)).toBe('ok');
    expect(code({ ...base, status: 'disabled' }, true)).toBe('CONNECTION_DISABLED');
    expect(code({ ...base, status: 'unhealthy' }, false)).toBe('ok');
  });
});
