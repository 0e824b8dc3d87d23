/** Validation messages name the field and, for a union of literals, every value it accepts. */
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { validationMessage, validatorCompiler, ValidationFailure } from './validation.ts';

function messageFor(schema: object, value: unknown, httpPart: 'body' | 'querystring'): string {
  const validate = validatorCompiler({ schema, httpPart, method: 'GET', url: '/' });
  const result = validate(value) as { error?: unknown };
  if (!(result.error instanceof ValidationFailure)) throw new Error('expected a validation failure');
  return validationMessage(result.error.errors, httpPart === 'body' ? 'body' : 'query').message;
}

describe('validation messages', () => {
  it('list every value of a union of literals, not only the first', () => {
    const query = Type.Object({ response_mode: Type.Optional(Type.Union([Type.Literal('prefer_sync'), Type.Literal('async')])) });
    expect(messageFor(query, { response_mode: 'sometimes' }, 'querystring')).toBe(
      '`response_mode` in the query string must be one of: prefer_sync, async.',
    );
    const idType = Type.Object({ id_type: Type.Union([Type.Literal('service'), Type.Literal('platform')]) });
    expect(messageFor(idType, { id_type: 'x' }, 'querystring')).toBe('`id_type` in the query string must be one of: service, platform.');
  });

  it('list the literals of a union that also takes a list of them', () => {
    const expand = Type.Object({ expand: Type.Union([Type.Literal('platform_data'), Type.Array(Type.Literal('platform_data'))]) });
    expect(messageFor(expand, { expand: 'everything' }, 'body')).toBe('`expand` in the request body must be one of: platform_data.');
  });

  it('describe a nested field of a union member by its own rule', () => {
    const body = Type.Object({
      item: Type.Union([Type.Object({ kind: Type.Literal('a'), size: Type.Integer({ maximum: 3 }) }), Type.Literal('none')]),
    });
    expect(messageFor(body, { item: { kind: 'a', size: 9 } }, 'body')).toBe('`item.size` in the request body must be <= 3.');
  });

  it('name an unknown field beside a missing required one (most often its misspelling)', () => {
    const body = Type.Object({ name: Type.Union([Type.String(), Type.Null()]) }, { additionalProperties: false });
    expect(messageFor(body, { nmae: 'x' }, 'body')).toBe('`name` in the request body is required; `nmae` is not a known field there.');
    expect(messageFor(body, { name: 'x', extra: 1 }, 'body')).toBe('`extra` in the request body is not a known field; remove it.');
    const nested = Type.Object({ bill: Type.Object({ vendor_id: Type.String() }, { additionalProperties: false }) });
    expect(messageFor(nested, { bill: { vendorid: 'v', memo: 'm' } }, 'body')).toBe(
      '`bill.vendor_id` in the request body is required; `bill.vendorid`, `bill.memo` are not known fields there.',
    );
  });
});
