/**
 * Read endpoints of every unified resource (list and fetch, or the one object of a connection), generated from
 * the model registry so that every resource follows the same conventions.
 */
import type { Endpoint } from '../../http/contract.ts';
import { UNIFIED_OBJECT_TYPES } from '../../model/object-types.ts';
import type { UnifiedObjectType } from '../../model/object-types.ts';
import { fetchEndpoint, listEndpoint, singleObjectEndpoint } from './read.ts';

/** Resources the reference serves as one object per connection, not as a list (docs/reference.md). */
export const SINGLE_OBJECT_TYPES: ReadonlySet<UnifiedObjectType> = new Set(['company_info', 'store']);

/**
 * Resources read through views of their own: attachments, per document type (src/api/accounting/attachments);
 * the generic list at the attachment's path answered every document's files under journal entries.
 */
const READ_BY_VIEWS: ReadonlySet<UnifiedObjectType> = new Set(['attachment']);

export const dataEndpoints: Endpoint[] = UNIFIED_OBJECT_TYPES.filter((type) => !READ_BY_VIEWS.has(type)).flatMap((type) =>
  SINGLE_OBJECT_TYPES.has(type) ? [singleObjectEndpoint(type)] : [listEndpoint(type), fetchEndpoint(type)]);
