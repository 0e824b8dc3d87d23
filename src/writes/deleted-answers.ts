/**
 * What a DELETE answers once the platform deleted the record: `{code: "deleted", success: true}`, or the reference's
 * own shape where it has one for the object (a commerce product: `{product: <id>, success: true}`).
 */
import { Type, type TSchema } from 'typebox';
import type { UnifiedObjectType } from '../model/object-types.ts';

export const DeletedSchema = Type.Object(
  {
    code: Type.Literal('deleted'),
    success: Type.Literal(true),
  },
  { description: 'The record is deleted on the platform and from the stored copy.' },
);

interface DeletedShape {
  schema: TSchema;
  description: string;
  body(serviceId: string): Record<string, unknown>;
}

const COMMERCE_DELETED: Readonly<Partial<Record<UnifiedObjectType, DeletedShape>>> = {
  product: {
    schema: Type.Object(
      {
        product: Type.String({ description: 'Service id of the deleted product.' }),
        success: Type.Literal(true),
      },
      { description: 'The product is deleted on the platform and from the stored copy.' },
    ),
    description: '{product: id, success: true}',
    body: (serviceId) => ({ product: serviceId, success: true }),
  },
};

export function deletedSchema(type: UnifiedObjectType): TSchema {
  return COMMERCE_DELETED[type]?.schema ?? DeletedSchema;
}

export function deletedBody(type: UnifiedObjectType, serviceId: string): Record<string, unknown> {
  return COMMERCE_DELETED[type]?.body(serviceId) ?? { code: 'deleted', success: true };
}

export function deletedDescription(type: UnifiedObjectType): string {
  return COMMERCE_DELETED[type]?.description ?? '{code: "deleted", success: true}';
}
