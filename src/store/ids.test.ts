import { describe, expect, it } from 'vitest';
import { serviceId } from './ids.ts';

describe('service ids', () => {
  const connection = '8f0c1a52-3b0e-4d8e-9a43-1f1c2d3e4f50';
  it('are stable, UUID-shaped and distinct per connection, type and platform id', () => {
    const id = serviceId(connection, 'bill', 'BILL-1');
    expect(id).toBe(serviceId(connection, 'bill', 'BILL-1'));
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(serviceId(connection, 'invoice', 'BILL-1')).not.toBe(id);
    expect(serviceId(connection, 'bill', 'BILL-2')).not.toBe(id);
    expect(serviceId('00000000-0000-4000-8000-000000000000', 'bill', 'BILL-1')).not.toBe(id);
  });

  it('never change between versions: stored records and links to them are keyed by them', () => {
    // Computed once by the first implementation (createHash('sha1'), v5 layout).
    expect(serviceId(connection, 'bill', 'BILL-1')).toBe('11e8cf0a-1795-5508-b4c2-b14ab27f358d');
  });
});
