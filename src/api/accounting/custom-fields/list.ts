/**
 * GET /accounting/{entityType}/custom_fields, one route per object the reference names (bills, expenses, invoices,
 * invoice_payments, journal_entries): the custom fields the business defined for the object and for its lines, in the
 * reference's shape (`{custom_fields: {entity, "entity.line_items"}}`, nothing else). Static routes, so they win over
 * the object's `/:id` (docs/reference.md, "Custom fields").
 */
import { Type } from 'typebox';
import { defineContract, defineEndpoint, type Endpoint } from '../../../http/contract.ts';
import { OBJECT_TYPES } from '../../../model/object-types.ts';
import { CUSTOM_FIELD_OBJECTS, type CustomFieldDefinition, type CustomFieldObject } from '../../../platforms/connector.ts';
import { ForceFetchSchema, READ_ERRORS, readableConnection } from '../../data/read.ts';
import { customFieldDefinitions } from './definitions.ts';

const CustomFieldSchema = Type.Object(
  {
    description: Type.String({ description: 'The description of the field.' }),
    key: Type.String({ description: 'The platform key of the field.' }),
    name: Type.String({ description: 'The name of the field.' }),
    required: Type.Boolean({ description: 'Whether the field is required on this object.' }),
    type: Type.Union([Type.Literal('boolean'), Type.Literal('select'), Type.Literal('string'), Type.Literal('number'), Type.Literal('multiselect')], {
      description: 'The type of the field.',
    }),
    options: Type.Array(Type.Object({ text: Type.String(), value: Type.String() }, { additionalProperties: false }), {
      description: 'The choices of a select or multiselect field; empty for the other types.',
    }),
    default: Type.Union([Type.String(), Type.Boolean(), Type.Number(), Type.Null()], { description: 'The default value of the field, if any.' }),
  },
  { additionalProperties: false },
);

const served = (fields: readonly CustomFieldDefinition[]) => fields.map((field) => ({ ...field, options: field.options.map((o) => ({ ...o })) }));

function customFieldsEndpoint(type: CustomFieldObject): Endpoint {
  const { plural, path } = OBJECT_TYPES[type];
  const contract = defineContract({
    method: 'GET',
    url: `${path}/custom_fields`,
    auth: 'client',
    tags: [plural.replaceAll('_', ' ')],
    summary: `List the custom fields of ${plural.replaceAll('_', ' ')}`,
    description:
      'The fields the business defined on its platform for this object (`entity`) and for its lines (`entity.line_items`), as the platform says now: read from the platform at each request, not synced. Empty lists where the business defined none; 404 ENDPOINT_NOT_SUPPORTED_FOR_PLATFORM where the platform has no custom fields the service reads.',
    querystring: Type.Object({ access_token: Type.Optional(Type.String()), force_fetch: ForceFetchSchema }),
    success: {
      status: 200,
      schema: Type.Object(
        {
          custom_fields: Type.Object(
            { entity: Type.Array(CustomFieldSchema), 'entity.line_items': Type.Array(CustomFieldSchema) },
            { additionalProperties: false },
          ),
        },
        { additionalProperties: false },
      ),
    },
    errors: [...READ_ERRORS, 'SERVICE_UNAVAILABLE'],
  });
  return defineEndpoint(contract, async (request) => {
    const connection = await readableConnection(request, type, request.query.access_token, request.query.force_fetch === 'true');
    const fields = await customFieldDefinitions(request.server.services, connection, type);
    return { custom_fields: { entity: served(fields.entity), 'entity.line_items': served(fields.lineItems) } };
  });
}

export const customFieldEndpoints: Endpoint[] = CUSTOM_FIELD_OBJECTS.map(customFieldsEndpoint);
