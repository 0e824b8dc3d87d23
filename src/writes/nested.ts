/**
 * Records kept inside a commerce object that have endpoints of their own: a product's variants (POST
 * /commerce/products/{id}/variants, PATCH and DELETE …/variants/{variantId}). Any such kind is one entry of NESTED.
 *
 * A nested write is a job on its parent: the job's object type and target are the parent's, its request path names
 * the kind (the parent's array field, also the URL segment) and the nested record's id. The platform answers the
 * parent as it is afterwards; that is stored (write-through, `<PARENT>_UPDATED` with the job id), and the client's
 * answer is the nested record as the stored parent has it (or the reference's answer to a delete).
 */
import { OBJECT_TYPES, type UnifiedObjectType } from '../model/object-types.ts';
import { MODEL } from '../model/index.ts';
import type { WriteJob } from '../sql/write-jobs.ts';

type Json = Record<string, unknown>;

export type NestedOperation = 'create' | 'update' | 'delete';

export interface NestedKind {
  parent: UnifiedObjectType;
  /** The parent's array field that holds them; also the URL segment after the parent's id. */
  field: string;
  /** The body's and the answer's key. */
  singular: string;
  /** Name of the nested id's path parameter (`variantId`, as the reference has it). */
  idParam: string;
  /** Fields a create must carry. */
  required: readonly string[];
  /** Fields of the read model's entry a write does not take: set or derived by the platform. */
  omit: readonly string[];
  /** The reference's answer to a delete names the parent and the deleted record under these keys. */
  deletedKeys: { parent: string; nested: string };
}

export const NESTED: Readonly<Record<string, NestedKind>> = {
  variant: {
    parent: 'product',
    field: 'variants',
    singular: 'variant',
    idParam: 'variantId',
    // The reference's CreateVariantBody: a price and a sku.
    required: ['price', 'sku'],
    // As a product create's variants (src/writes/writable.ts).
    omit: [
      'id',
      'platform_id',
      'product_id',
      'iso_currency_code',
      'fulfillment_service',
      'inventory_management',
      'requires_shipping',
      'images',
      'created_at',
      'updated_at',
    ],
    deletedKeys: { parent: 'productId', nested: 'variantId' },
  },
};

const isJson = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The read model's schema of one entry of the parent's array field (plain JSON). */
export function entrySchema(kind: NestedKind): Json {
  const parent = JSON.parse(JSON.stringify(MODEL[kind.parent].schema)) as Json;
  const properties = isJson(parent.properties) ? parent.properties : {};
  const array = properties[kind.field];
  if (!isJson(array) || !isJson(array.items)) throw new Error(`${kind.parent}.${kind.field} is not an array of objects`);
  return array.items;
}

/** The reference's answer to a nested delete. */
export function nestedDeletedBody(kind: NestedKind, parentId: string, nestedId: string): Json {
  return { [kind.deletedKeys.parent]: parentId, [kind.deletedKeys.nested]: nestedId };
}

export function nestedDeletedSchema(kind: NestedKind): Json {
  return {
    type: 'object',
    properties: {
      [kind.deletedKeys.parent]: { type: 'string', description: `Service id of the ${OBJECT_TYPES[kind.parent].singular.replaceAll('_', ' ')}.` },
      [kind.deletedKeys.nested]: { type: 'string', description: `Id of the deleted ${kind.singular}.` },
    },
    required: [kind.deletedKeys.parent, kind.deletedKeys.nested],
    additionalProperties: false,
    description: `The ${kind.singular} is deleted on the platform; its ${OBJECT_TYPES[kind.parent].singular.replaceAll('_', ' ')} is stored as it is now.`,
  };
}

/** The body part of a nested create or update: the entry's writable fields; an update may repeat the id of its path. */
export function nestedInputSchema(kind: NestedKind, operation: 'create' | 'update'): Json {
  const entry = entrySchema(kind);
  const properties: Json = {};
  for (const [name, field] of Object.entries(isJson(entry.properties) ? entry.properties : {})) {
    if (kind.omit.includes(name) || !isJson(field)) continue;
    properties[name] = field;
  }
  if (operation === 'update') {
    // The reference's UpdateVariantBody carries the variant's id: taken when it is the path's.
    properties.id = { type: 'string', minLength: 1, description: `Id of the ${kind.singular}; when sent, the path's ${kind.idParam}.` };
  }
  return {
    type: 'object',
    properties,
    additionalProperties: false,
    ...(operation === 'create' ? { required: [...kind.required] } : { minProperties: 1 }),
    description:
      operation === 'create'
        ? `The ${kind.singular} to add.`
        : `The fields of the ${kind.singular} to change (omitted fields keep their value; arrays are replaced whole).`,
  };
}

const JOB_OPERATION: Readonly<Record<NestedOperation, 'create_nested' | 'update_nested' | 'delete_nested'>> = {
  create: 'create_nested',
  update: 'update_nested',
  delete: 'delete_nested',
};

export const nestedJobOperation = (operation: NestedOperation): 'create_nested' | 'update_nested' | 'delete_nested' => JOB_OPERATION[operation];

/** Which kind a nested job writes and, for updates and deletes, the id its path names. */
export function nestedOfJob(job: WriteJob): { kind: NestedKind; nestedId: string | null } {
  const segments = job.request.path.split('/').map((s) => decodeURIComponent(s));
  for (const kind of Object.values(NESTED)) {
    if (kind.parent !== job.objectType) continue;
    const at = segments.lastIndexOf(kind.field);
    if (at < 0) continue;
    const nestedId = segments[at + 1];
    return { kind, nestedId: nestedId === undefined || nestedId === '' ? null : nestedId };
  }
  throw new Error(`job ${job.id} (${job.request.path}) writes no nested kind of ${job.objectType}`);
}
