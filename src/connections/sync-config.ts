/**
 * syncConfig: which entities to sync, how far back the initial sync reaches
 * (per entity, optionally in batches), and how often incremental syncs run.
 *
 *   {
 *     "entities": ["BILL", "ACCOUNT"],            // omitted = every entity the platform offers
 *     "historical_months": 24,                    // initial sync window on dated records (default 24; 0 = no limit)
 *     "entity_historical_months": {"BILL": 6},    // per-entity override
 *     "data_batching": {"months": [1, 6]},        // optional: sync the newest 1 month, then 6, then the rest;
 *                                                 //   each finished batch fires HISTORICAL_UPDATE
 *     "incremental_sync_frequency_minutes": 60    // 60 (hourly, default) to 20160 (14 days)
 *   }
 */
import { Type, type Static } from 'typebox';
import { OBJECT_TYPES, type UnifiedObjectType } from '../model/object-types.ts';
import { ServiceError } from '../errors/catalogue.ts';

export const ENTITY_NAMES = Object.values(OBJECT_TYPES).map((o) => o.entity);
export type EntityName = (typeof ENTITY_NAMES)[number];

const ENTITY_TO_TYPE = new Map(Object.entries(OBJECT_TYPES).map(([type, o]) => [o.entity as string, type as UnifiedObjectType]));

export function entityToObjectType(entity: string): UnifiedObjectType | undefined {
  return ENTITY_TO_TYPE.get(entity);
}

export function objectTypeToEntity(type: UnifiedObjectType): string {
  return OBJECT_TYPES[type].entity;
}

export const MIN_FREQUENCY_MINUTES = 60;
export const MAX_FREQUENCY_MINUTES = 14 * 24 * 60;
export const DEFAULT_HISTORICAL_MONTHS = 24;
export const DEFAULT_FREQUENCY_MINUTES = 60;

/** Batch boundaries of an initial sync (an organisation setting, or a connection's override; [] = none). */
export const DataBatchingSchema = Type.Object(
  {
    months: Type.Array(Type.Integer({ minimum: 1, maximum: 240 }), {
      maxItems: 12,
      description: 'Ascending batch boundaries in months back; each finished batch fires HISTORICAL_UPDATE. [] turns batching off.',
    }),
  },
  { additionalProperties: false },
);

/** Batch boundaries must be strictly ascending; the schema cannot say so. */
export function checkDataBatchingMonths(months: readonly number[], field: string): void {
  if (months.some((m, i) => i > 0 && m <= (months[i - 1] ?? 0))) {
    throw new ServiceError('VALIDATION_ERROR', `\`${field}\` in the request body must be strictly ascending, e.g. [1, 6, 12].`, {
      source: 'service',
      field,
      location: 'body',
    });
  }
}

export const SyncConfigSchema = Type.Object(
  {
    entities: Type.Optional(
      Type.Array(Type.String(), { minItems: 1, uniqueItems: true, description: 'Upper-case entity names, e.g. BILL, ACCOUNT. Omitted: all.' }),
    ),
    historical_months: Type.Optional(
      Type.Integer({ minimum: 0, maximum: 240, description: 'Months back the initial sync reaches on dated records; 0 = everything.' }),
    ),
    entity_historical_months: Type.Optional(
      Type.Record(Type.String(), Type.Integer({ minimum: 0, maximum: 240 }), { description: 'Per-entity override of historical_months.' }),
    ),
    data_batching: Type.Optional(DataBatchingSchema),
    incremental_sync_frequency_minutes: Type.Optional(
      Type.Integer({ minimum: MIN_FREQUENCY_MINUTES, maximum: MAX_FREQUENCY_MINUTES, description: '60 (hourly, default) to 20160 (14 days).' }),
    ),
  },
  { additionalProperties: false, description: 'Which entities to sync, the historical time frame and the incremental frequency.' },
);

export type SyncConfig = Static<typeof SyncConfigSchema>;

/** Checks what the schema cannot: entity names against the platform's offer, ascending batches. */
export function validateSyncConfig(config: SyncConfig, supported: readonly string[]): void {
  const check = (entity: string, field: string) => {
    if (!supported.includes(entity)) {
      throw new ServiceError(
        'VALIDATION_ERROR',
        `\`${field}\` in the request body names "${entity}", which this platform does not sync. Allowed: ${supported.join(', ')}.`,
        { source: 'service', field, location: 'body' },
      );
    }
  };
  for (const entity of config.entities ?? []) check(entity, 'syncConfig.entities');
  for (const entity of Object.keys(config.entity_historical_months ?? {})) check(entity, 'syncConfig.entity_historical_months');
  checkDataBatchingMonths(config.data_batching?.months ?? [], 'syncConfig.data_batching.months');
}
