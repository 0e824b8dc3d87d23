import { describe, expect, it } from 'vitest';
import { recordCompleter } from './openapi-records.ts';

const document = {
  components: {
    schemas: {
      thing: {
        type: 'object',
        required: ['id', 'note', 'tags', 'live', 'metadata', 'inner', 'amount'],
        properties: {
          id: { type: 'string' },
          note: { type: 'string', nullable: true },
          tags: { type: 'array', items: { type: 'string' } },
          live: { type: 'boolean' },
          metadata: { type: 'object', additionalProperties: { type: 'string' } },
          inner: { anyOf: [{ $ref: '#/components/schemas/inner' }], nullable: true },
          amount: { type: 'integer' },
        },
      },
      inner: { type: 'object', required: ['when'], properties: { when: { type: 'integer', nullable: true } } },
    },
  },
};

describe('records completed from an OpenAPI description', () => {
  const complete = recordCompleter(document);

  it('fills what a schema requires empty, and completes the objects a record holds by their own schema', () => {
    expect(complete('thing', { id: 't1', amount: 5, inner: {} })).toEqual({
      id: 't1',
      amount: 5,
      inner: { when: null },
      note: null,
      tags: [],
      live: false,
      metadata: {},
    });
  });

  it('keeps what the record wrote, and leaves out a required field without an empty value (the answer check finds it)', () => {
    expect(complete('thing', { id: 't1', note: 'kept', live: true, inner: null })).toEqual({
      id: 't1',
      note: 'kept',
      live: true,
      inner: null,
      tags: [],
      metadata: {},
    });
    expect(() => complete('nothing', {})).toThrow(/no component nothing/);
  });
});
