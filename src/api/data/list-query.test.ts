import { describe, expect, it } from 'vitest';
import { planListPage } from './list-query.ts';

const CONNECTION = '00000000-0000-4000-8000-000000000001';

describe('planListPage scope', () => {
  it('adds one parameterised equality per scoped field, before the request\'s own conditions', () => {
    const plan = planListPage(CONNECTION, 'attachment', { attached_to_id: 'x\' OR 1=1' }, false, { attached_to_type: 'bill' });
    expect(plan.query.where).toEqual({ sql: "data->>'attached_to_type' = $6 AND data->>'attached_to_id' = $7", params: ['bill', 'x\' OR 1=1'] });
  });
});
