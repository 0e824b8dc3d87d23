/**
 * Links are service ids (spec, shared rules): every link of every object a connector stored must be a service id
 * that its endpoint serves, or null. One walk for every connector's test: the fields the model declares as links
 * (LINKS, src/model/fields.ts) are fetched through their targets' endpoints; any other field that looks like a
 * link (`*_id`, `linked_*[].id`) and is not known to be something else is reported as undeclared, so a new link
 * cannot escape the check by being left out of the model.
 */
import { LINKS, collectLinks } from '../../src/model/index.ts';
import { OBJECT_TYPES, type UnifiedObjectType } from '../../src/model/object-types.ts';
import type { CreatedOrganization } from '../../src/tenants/organizations.ts';
import { clientHeaders, type TestApp } from './app.ts';

/**
 * Field names that look like links but hold no service id (the spec's shared rules: `id` is the service's,
 * `platform_id` the platform's; links are service ids): the platform's ids of objects, lines and variants, and ids
 * of things that are no unified object.
 */
export const NOT_LINKS: ReadonlySet<string> = new Set([
  // The platform's id of the object itself, or of a line or row of it.
  'platform_id',
  // Bank feed account: "Bank feed contact" and "Institution's id" (spec), no unified objects.
  'contact_id',
  'internal_bank_account_id',
  // A variant id is the platform's, unique within its product (the reference's), as src/model/fields.ts says.
  'variant_id',
  // A payout's bank account and gateway account: the platform's ids (src/model/payout.ts), no unified objects.
  'destination_id',
  'gateway_account_id',
  // A subscription's customer as the platform names it (the reference's field), beside the customer_id link.
  'platform_customer_id',
  // A refund line names the line of its own order it refunds: a line, which has no endpoint of its own.
  'line_item_id',
]);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

interface Stored {
  object_type: UnifiedObjectType;
  id: string;
  platform_id: string;
  data: Record<string, unknown>;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Every non-null value under a link-like name: `vendor_id`, `linked_bills[0].id`; with its path and its pattern (`[]` for indexes). */
function linkLikeValues(value: unknown, path = '', pattern = '', parentKey = ''): { path: string; pattern: string; value: unknown }[] {
  if (Array.isArray(value)) {
    return value.flatMap((item: unknown, i) => linkLikeValues(item, `${path}[${String(i)}]`, `${pattern}[]`, parentKey));
  }
  if (!isRecord(value)) return [];
  return Object.entries(value).flatMap(([key, child]) => {
    const at = path === '' ? key : `${path}.${key}`;
    const like = pattern === '' ? key : `${pattern}.${key}`;
    // The object's own id and the platform's data are not links.
    if (path === '' && (key === 'id' || key === 'platform_data')) return [];
    const named = key.endsWith('_id') || (key === 'id' && parentKey.startsWith('linked_'));
    const found =
      named && child !== null && child !== undefined && !isRecord(child) && !Array.isArray(child) ? [{ path: at, pattern: like, value: child }] : [];
    return [...found, ...linkLikeValues(child, at, like, key)];
  });
}

/**
 * What is wrong with the links of every live object the connection stores: links that are no service id, that no
 * target's endpoint serves, and link-like fields the model does not declare. Empty when every link resolves.
 */
export interface LinkWalkOptions {
  org?: CreatedOrganization;
  /**
   * Platform ids of stored objects whose unresolved links are the test data's, not the connector's: a stand-in
   * seeded from a platform's published examples, which point at records no example lists. Each with its reason.
   */
  knownDanglingIn?: Readonly<Record<string, string>>;
}

export async function linkProblems(t: TestApp, connectionId: string, options: LinkWalkOptions = {}): Promise<string[]> {
  const org = options.org ?? t.org;
  const knownDangling = options.knownDanglingIn ?? {};
  const sealed = await t.db.pool.query<{ access_token_ciphertext: Buffer }>('SELECT access_token_ciphertext FROM connections WHERE id = $1', [
    connectionId,
  ]);
  const token = t.services.cipher.decrypt(sealed.rows[0]?.access_token_ciphertext ?? Buffer.alloc(0));
  const stored = await t.db.pool.query<Stored>(
    'SELECT object_type, id, platform_id, data FROM records WHERE connection_id = $1 AND deleted_at IS NULL ORDER BY object_type, id',
    [connectionId],
  );
  // One line per field and problem, with its first value and how many objects have it.
  const problems = new Map<string, { example: unknown; count: number }>();
  const report = (problem: string, value: unknown): void => {
    const seen = problems.get(problem);
    problems.set(problem, { example: seen?.example ?? value, count: (seen?.count ?? 0) + 1 });
  };
  const resolved = new Map<string, Promise<boolean>>();
  const resolves = (id: string, targets: readonly UnifiedObjectType[]): Promise<boolean> => {
    const key = `${targets.join('|')}:${id}`;
    let answer = resolved.get(key);
    if (answer === undefined) {
      answer = fetchedByAny(t, org, token, id, targets);
      resolved.set(key, answer);
    }
    return answer;
  };
  for (const row of stored.rows) {
    const links = collectLinks(LINKS[row.object_type], row.data);
    const declared = new Set(links.map((link) => link.path));
    for (const like of linkLikeValues(row.data)) {
      const name = like.pattern.split('.').pop() ?? '';
      if (!declared.has(like.path) && !NOT_LINKS.has(name) && !(like.value === '' && isEmptyNone(row.object_type, like.pattern))) {
        report(`${row.object_type}.${like.pattern}: a link-like field the model does not declare`, like.value);
      }
    }
    for (const link of links) {
      const pattern = link.path.replace(/\[\d+\]/g, '[]');
      if (!UUID.test(link.id)) report(`${row.object_type}.${pattern}: no service id`, link.id);
      else if (!(row.platform_id in knownDangling) && !(await resolves(link.id, link.targets)))
        report(
          `${row.object_type}.${pattern}: served by no ${link.targets.join(' or ')} endpoint`,
          `${link.id} in ${row.platform_id}${await whatIsStored(t, connectionId, link.id)}`,
        );
    }
  }
  return [...problems].map(([problem, { example, count }]) => `${problem} (${JSON.stringify(example)}, ${String(count)}×)`).sort();
}

/** Whether the unresolved id is stored at all (deleted, or under another type): to say why it does not resolve. */
async function whatIsStored(t: TestApp, connectionId: string, id: string): Promise<string> {
  const found = await t.db.pool.query<{ object_type: string; platform_id: string; deleted: boolean }>(
    'SELECT object_type, platform_id, deleted_at IS NOT NULL AS deleted FROM records WHERE connection_id = $1 AND id = $2',
    [connectionId, id],
  );
  const row = found.rows[0];
  return row === undefined ? ', not stored' : `, stored as ${row.object_type} ${row.platform_id}${row.deleted ? ' (deleted)' : ''}`;
}

/** "" is "no link" where the model says so (a report row that is no account). */
function isEmptyNone(type: UnifiedObjectType, pattern: string): boolean {
  return LINKS[type].some((link) => link.emptyIsNone === true && pattern.endsWith(link.path.split('.').pop() ?? ''));
}

async function fetchedByAny(
  t: TestApp,
  org: CreatedOrganization,
  token: string,
  id: string,
  targets: readonly UnifiedObjectType[],
): Promise<boolean> {
  for (const target of targets) {
    const response = await t.app.inject({
      method: 'GET',
      url: `/versioned${OBJECT_TYPES[target].path}/${id}?access_token=${token}&force_fetch=true`,
      headers: clientHeaders(org),
    });
    if (response.statusCode === 200) return true;
  }
  return false;
}
