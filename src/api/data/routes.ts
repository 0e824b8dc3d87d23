/**
 * Read endpoints of every unified resource (list and fetch), generated from
 * the model registry so that every resource follows the same conventions.
 */
import type { Endpoint } from '../../http/contract.ts';
import { UNIFIED_OBJECT_TYPES } from '../../model/object-types.ts';
import { fetchEndpoint, listEndpoint } from './read.ts';

export const dataEndpoints: Endpoint[] = UNIFIED_OBJECT_TYPES.flatMap((type) => [listEndpoint(type), fetchEndpoint(type)]);
