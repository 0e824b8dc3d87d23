/** Tax rate: a simple or compound tax. */
import { Type, type Static } from 'typebox';
import {
  AdditionalFieldsProperty,
  CreatedAtProperty,
  IdProperty,
  LastSyncedAtProperty,
  Nullable,
  PlatformDataProperty,
  PlatformIdProperty,
  Str,
  StringEnum,
  SubsidiaryRefSchema,
  UpdatedAtProperty,
} from './shared.ts';

// The spec does not show the allowed values; these are the service's.
export const TAX_RATE_STATUSES = ['active', 'inactive', 'unknown'] as const;

export const TaxRateComponentSchema = Type.Object(
  {
    is_compound: Type.Boolean({ description: 'Whether the component is computed on the amount plus the preceding components.' }),
    is_purchases_tax: Type.Boolean({ description: 'Whether the component applies to purchases.' }),
    is_sales_tax: Type.Boolean({ description: 'Whether the component applies to sales.' }),
    name: Nullable(Str('Name of the component.'), 'Name of the component.'),
    rate: Type.Number({ description: 'Rate of the component in percent.' }),
  },
  { additionalProperties: false, description: 'Sub-tax of a tax rate.' },
);

export const TaxRateSchema = Type.Object(
  {
    id: IdProperty,
    platform_id: PlatformIdProperty,
    status: StringEnum(TAX_RATE_STATUSES, 'Status of the tax rate.'),
    code: Nullable(Str('Tax code.'), 'Tax code of the tax rate.'),
    name: Nullable(Str('Name of the tax rate.'), 'Name of the tax rate.'),
    effective_tax_rate: Nullable(
      Type.Number({ description: 'Effective rate in percent.' }),
      'Rate that, applied to the original amount, gives the total tax including compounding.',
    ),
    total_tax_rate: Nullable(Type.Number({ description: 'Sum of component rates in percent.' }), 'Sum of the component rates, without compounding.'),
    subsidiaries: Type.Array(SubsidiaryRefSchema, { description: 'Subsidiaries the tax rate belongs to.' }),
    components: Type.Array(TaxRateComponentSchema, { description: 'Components of the tax rate (a few platforms).' }),
    additional_fields: AdditionalFieldsProperty,
    created_at: CreatedAtProperty,
    updated_at: UpdatedAtProperty,
    last_synced_at: LastSyncedAtProperty,
    platform_data: PlatformDataProperty,
  },
  { additionalProperties: false, description: 'A simple or compound tax. On one ERP platform the list returns both tax codes and tax groups.' },
);

export type TaxRate = Static<typeof TaxRateSchema>;
