/**
 * Shopify's customer segments as the unified customer groups: a segment is a named group of the shop's customers kept
 * by a rule (its `query`, in Shopify's segment query language), which platform_data keeps with the record.
 */
import type { PlatformRecord } from '../connector.ts';
import type { Mapped } from '../objects.ts';
import { text } from '../readers.ts';
import type { NodeOf, Segments } from './contract.ts';

type ShopifySegment = NodeOf<Segments['segments']>;

export function mapSegment(recordIn: PlatformRecord): Mapped<'customer_group'> {
  const raw: ShopifySegment = recordIn.raw;
  return {
    platform_id: recordIn.platformId,
    name: text(raw.name),
    created_at: text(raw.creationDate),
    updated_at: text(raw.lastEditDate),
  };
}
