/**
 * The registered connectors. A connector is checked once, when it registers,
 * for everything the type system cannot see (id format, handlers matching the
 * declared capabilities, sane limits), so a mistake fails at startup with every
 * problem listed instead of as a 500 on the first request that touches it.
 */
import { ServiceError } from '../errors/catalogue.ts';
import { isUnifiedObjectType, type UnifiedObjectType } from '../model/object-types.ts';
import {
  OAUTH_CALLBACK_RESERVED,
  type AuthorizationInputField,
  type Connector,
  type CredentialField,
  type CredentialFieldSpec,
  type ObjectCapabilities,
  type ObjectHandler,
} from './connector.ts';

/** Capabilities an API route can depend on. */
export type ObjectOperation = 'read' | 'filter' | 'fetchByPlatformId' | 'create' | 'update' | 'delete';

/** A record, so the compiler insists every CredentialField of connector.ts is here. */
const CREDENTIAL_FIELD_SET: Record<CredentialField, true> = {
  oauth_client_id: true,
  oauth_client_secret: true,
  oauth_access_token: true,
  oauth_refresh_token: true,
  store_url: true,
  basic_username: true,
  basic_password: true,
  api_key: true,
  marketplace_access_key_id: true,
  marketplace_secret_access_key: true,
  marketplace_seller_region: true,
  marketplace_selling_partner_role: true,
  country: true,
  partner_id: true,
  shop_id: true,
  key: true,
  account_id: true,
  realm_id: true,
  environment: true,
  token_id: true,
  consumer_key: true,
  consumer_secret: true,
  store_name: true,
  token_secret: true,
  seller_id: true,
  tenant_id: true,
  user_id: true,
  organization_id: true,
  region: true,
};
export const CREDENTIAL_FIELDS = Object.keys(CREDENTIAL_FIELD_SET) as CredentialField[];

const PLATFORM_ID = /^[A-Z0-9_]+$/;
const KINDS = new Set(['accounting', 'commerce', 'payments', 'bank_feed']);
const INCREMENTAL = new Set(['cursor', 'none']);
const DELETIONS = new Set(['reported', 'full_listing', 'none']);
const WRITES = ['create', 'update', 'delete'] as const;
const MAX_RPM = 1_000_000;
const MAX_CONCURRENT = 1_000;
const MAX_DAILY = 100_000_000;
const MAX_PER_SECOND = 100_000;
const MAX_POINTS = 100_000_000;
const OPERATION_NAME = /^\S.{0,99}$/;

/** Runtime check the types cannot give: a connector built from loose objects may lack a method. */
function hasFunction(target: object, name: string): boolean {
  const value: unknown = Reflect.get(target, name);
  return typeof value === 'function';
}
const isPositiveInt = (value: number, max: number): boolean => Number.isInteger(value) && value >= 1 && value <= max;

/** Every problem with a connector, one sentence each; empty when it is fine. */
export function validateConnector(connector: Connector): string[] {
  const problems: string[] = [];
  if (!PLATFORM_ID.test(connector.id)) problems.push(`id "${connector.id}" must be upper-case A-Z, 0-9 and _`);
  if (connector.name.trim() === '') problems.push('name is empty');
  if (!KINDS.has(connector.kind)) problems.push(`kind "${connector.kind}" is not one of ${[...KINDS].join(', ')}`);
  if (!hasFunction(connector, 'identify')) problems.push('identify is not a function');
  if (connector.platformUrl !== undefined && !hasFunction(connector, 'platformUrl')) problems.push('platformUrl is not a function');
  problems.push(...authProblems(connector), ...limitProblems(connector), ...polledProblems(connector));
  const entries = Object.entries(connector.objects);
  if (entries.length === 0) problems.push('declares no objects');
  for (const [type, entry] of entries) {
    if (!isUnifiedObjectType(type)) problems.push(`object "${type}" is not a unified object type`);
    else problems.push(...objectProblems(type, entry.capabilities, entry.handler));
  }
  return problems;
}

function authProblems(connector: Connector): string[] {
  const auth = connector.auth;
  if (auth.type === 'oauth2') {
    const reserved = new Set<string>(OAUTH_CALLBACK_RESERVED);
    return [
      ...(['authorizeUrl', 'exchangeCode', 'refresh'] as const)
        .filter((name) => !hasFunction(auth, name))
        .map((name) => `auth.${name} is not a function`),
      ...(auth.callbackParams ?? [])
        // `state` is the link flow's, but a connector may read it too: Shopify's callback hmac signs it with the rest.
        .filter((name) => (reserved.has(name) && name !== 'state') || !/^[A-Za-z][A-Za-z0-9_.-]{0,63}$/.test(name))
        .map((name) => `callback parameter "${name}" is reserved by the link flow or not a plain parameter name`),
      ...authorizationInputProblems(auth.authorizationInput ?? []),
      ...(auth.credentials === undefined ? [] : credentialFieldProblems(auth.credentials)),
    ];
  }
  return credentialFieldProblems(auth.fields);
}

/**
 * A platform that calls us (src/platforms/polled.ts) has nothing for the end user to type, and its .qwc file must be one
 * the Web Connector accepts (QBWC programmer's guide: a name and a schedule in whole minutes; QBType is typed).
 */
function polledProblems(connector: Connector): string[] {
  const polled = connector.polled;
  if (polled === undefined) return [];
  const problems: string[] = [];
  if (connector.auth.type !== 'credentials' || connector.auth.fields.length > 0) {
    problems.push('polled: auth must be credentials without fields (the link page hands out the .qwc file and its password)');
  }
  if (polled.file.appName.trim() === '') problems.push('polled.file.appName is empty');
  if (!isPositiveInt(polled.file.runEveryMinutes, 24 * 60)) problems.push('polled.file.runEveryMinutes must be an integer from 1 to 1440');
  if (polled.answerCheckMs !== undefined && !isPositiveInt(polled.answerCheckMs, 3_600_000)) {
    problems.push('polled.answerCheckMs must be an integer from 1 to 3600000');
  }
  return problems;
}

function credentialFieldProblems(fields: readonly CredentialFieldSpec[]): string[] {
  const known = new Set<string>(CREDENTIAL_FIELDS);
  const seen = new Set<string>();
  const problems: string[] = [];
  for (const spec of fields) {
    const field = spec.field;
    if (!known.has(field)) problems.push(`credential field "${field}" is not a credential field of the API`);
    if (seen.has(field)) problems.push(`credential field "${field}" is listed twice`);
    seen.add(field);
    if (spec.label.trim() === '') problems.push(`credential field "${field}" has no label`);
  }
  if (fields.length > 0 && !fields.some((spec) => spec.required)) problems.push('no credential field is required');
  return problems;
}

function authorizationInputProblems(fields: readonly AuthorizationInputField[]): string[] {
  const known = new Set<string>(CREDENTIAL_FIELDS);
  const seen = new Set<string>();
  const problems: string[] = [];
  for (const spec of fields) {
    const where = `authorization input "${spec.field}"`;
    if (!known.has(spec.field)) problems.push(`${where} is not a credential field of the API`);
    if (seen.has(spec.field)) problems.push(`${where} is listed twice`);
    seen.add(spec.field);
    if (spec.label.trim() === '') problems.push(`${where} has no label`);
    if (spec.hint.trim() === '') problems.push(`${where} has no hint for a value that does not match`);
    // Unanchored, a pattern accepts anything that contains a match: "evil.example/?x.myshopify.com".
    if (!(spec.pattern instanceof RegExp) || !spec.pattern.source.startsWith('^') || !spec.pattern.source.endsWith('$')) {
      problems.push(`${where} pattern must be a regular expression anchored with ^ and $`);
    }
  }
  return problems;
}

const isPositive = (value: number, max: number): boolean => Number.isFinite(value) && value > 0 && value <= max;

function limitProblems(connector: Connector): string[] {
  const { requestsPerMinute, burst, concurrentRequests, dailyRequests, costBucket, operations } = connector.limits;
  const problems: string[] = [];
  if (requestsPerMinute !== null && !isPositiveInt(requestsPerMinute, MAX_RPM)) {
    problems.push(`limits.requestsPerMinute ${requestsPerMinute} must be null or an integer from 1 to ${MAX_RPM}`);
  }
  if (burst !== undefined && (requestsPerMinute === null || !isPositiveInt(burst, MAX_CONCURRENT))) {
    problems.push(`limits.burst ${burst} must be an integer from 1 to ${MAX_CONCURRENT}, with requestsPerMinute`);
  }
  if (concurrentRequests !== null && !isPositiveInt(concurrentRequests, MAX_CONCURRENT)) {
    problems.push(`limits.concurrentRequests ${concurrentRequests} must be null or an integer from 1 to ${MAX_CONCURRENT}`);
  }
  if (dailyRequests !== undefined && dailyRequests !== null && !isPositiveInt(dailyRequests, MAX_DAILY)) {
    problems.push(`limits.dailyRequests ${dailyRequests} must be null or an integer from 1 to ${MAX_DAILY}`);
  }
  if (costBucket !== undefined) {
    const { size, refillPerSecond, defaultCost } = costBucket;
    if (!isPositive(size, MAX_POINTS)) problems.push(`limits.costBucket.size ${size} must be a number above 0 and at most ${MAX_POINTS}`);
    if (!isPositive(refillPerSecond, MAX_POINTS))
      problems.push(`limits.costBucket.refillPerSecond ${refillPerSecond} must be a number above 0 and at most ${MAX_POINTS}`);
    // A default above the size could never be taken from a full bucket.
    if (!isPositive(defaultCost, size)) problems.push(`limits.costBucket.defaultCost ${defaultCost} must be a number above 0 and at most the size`);
    if (costBucket.costOf !== undefined && !hasFunction(costBucket, 'costOf')) problems.push('limits.costBucket.costOf is not a function');
  }
  for (const [name, rate] of Object.entries(operations ?? {})) {
    if (!OPERATION_NAME.test(name))
      problems.push(`limits.operations "${name}" is not an operation name (1 to 100 characters, not starting with a space)`);
    if (!isPositive(rate.requestsPerSecond, MAX_PER_SECOND)) {
      problems.push(`limits.operations "${name}" requestsPerSecond ${rate.requestsPerSecond} must be a number above 0 and at most ${MAX_PER_SECOND}`);
    }
    if (!isPositiveInt(rate.burst, MAX_CONCURRENT))
      problems.push(`limits.operations "${name}" burst ${rate.burst} must be an integer from 1 to ${MAX_CONCURRENT}`);
  }
  return problems;
}

function objectProblems(type: UnifiedObjectType, caps: ObjectCapabilities, handler: ObjectHandler): string[] {
  const problems: string[] = [];
  const where = `object "${type}"`;
  if (handler.bulk !== undefined) {
    const bulk = handler.bulk;
    problems.push(
      ...(['startExport', 'pollExport', 'readExportPage'] as const)
        .filter((name) => !hasFunction(bulk, name))
        .map((name) => `${where} bulk.${name} is not a function`),
    );
    if (!caps.read) problems.push(`${where} has a bulk read but its capabilities say read: false`);
  }
  if (caps.read) {
    if (!hasFunction(handler, 'read')) problems.push(`${where} can be read but its handler has no read()`);
    if (!hasFunction(handler, 'map')) problems.push(`${where} can be read but its handler has no map()`);
  } else {
    if (caps.incremental !== 'none') problems.push(`${where} is not read, so incremental must be "none"`);
    if (caps.deletions !== 'none') problems.push(`${where} is not read, so deletions must be "none"`);
    if (caps.filter) problems.push(`${where} is not read, so it cannot be filtered`);
    if (caps.fetchByPlatformId) problems.push(`${where} is not read, so it cannot be fetched by platform id`);
  }
  if (!INCREMENTAL.has(caps.incremental)) problems.push(`${where} incremental "${caps.incremental}" is not cursor or none`);
  if (!DELETIONS.has(caps.deletions)) problems.push(`${where} deletions "${caps.deletions}" is not reported, full_listing or none`);
  for (const op of WRITES) {
    const has = handler[op] !== undefined;
    if (caps[op] && !hasFunction(handler, op)) problems.push(`${where} declares ${op} but its handler has no ${op}()`);
    if (!caps[op] && has) problems.push(`${where} has ${op}() but its capabilities say ${op}: false`);
  }
  const unmapped = caps.unmappedFields ?? [];
  if (new Set(unmapped).size !== unmapped.length) problems.push(`${where} lists an unmapped field twice`);
  return problems;
}

export interface ConnectorRegistry {
  register(connector: Connector): void;
  /**
   * A plugin's connector (SANDBOX's): replaces an earlier plugin's with the same id, as when a test file starts
   * several apps. It never replaces one registered with register(), and register() never replaces it.
   */
  replace(connector: Connector): void;
  get(id: string): Connector | undefined;
  /** Sorted by id. */
  list(): Connector[];
  /** Whether the platform supports the operation on the object; false for unknown platforms. */
  capabilityOf(platformId: string, objectType: UnifiedObjectType, operation: ObjectOperation): boolean;
}

export function createConnectorRegistry(): ConnectorRegistry {
  const connectors = new Map<string, Connector>();
  // Ids registered by replace(): only these may be replaced.
  const replaceable = new Set<string>();
  const add = (connector: Connector, clash: string | null): void => {
    const problems = validateConnector(connector);
    if (clash !== null) problems.unshift(clash);
    if (problems.length > 0) {
      throw new Error(`Connector ${connector.id} is invalid:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    }
    connectors.set(connector.id, connector);
  };
  return {
    register(connector) {
      add(connector, connectors.has(connector.id) ? `id "${connector.id}" is already registered` : null);
    },
    replace(connector) {
      const builtIn = connectors.has(connector.id) && !replaceable.has(connector.id);
      add(connector, builtIn ? `id "${connector.id}" is already registered, not by a plugin: it cannot be replaced` : null);
      replaceable.add(connector.id);
    },
    get: (id) => connectors.get(id),
    list: () => [...connectors.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)),
    capabilityOf(platformId, objectType, operation) {
      return connectors.get(platformId)?.objects[objectType]?.capabilities[operation] === true;
    },
  };
}

/**
 * The process-wide registry, filled by src/platforms/index.ts, and with SANDBOX by the process that
 * hosts it (src/runtime.ts, unless SANDBOX_ENABLED=false) or by a test app that builds its plugin.
 */
const registry = createConnectorRegistry();

/** Registering the very same connector again is a no-op; another one with a registered id still fails. */
export const registerConnector = (connector: Connector): void => {
  if (registry.get(connector.id) !== connector) registry.register(connector);
};
/**
 * For plugins and tests: a plugin's connector, bound to that plugin's platform, replaces the connector of an earlier
 * plugin with its id (a test file may start several apps, each with its own SANDBOX); never a built-in connector.
 */
export const replaceConnector = (connector: Connector): void => {
  registry.replace(connector);
};
export const getConnector = (id: string): Connector | undefined => registry.get(id);
export const listConnectors = (): Connector[] => registry.list();
export const capabilityOf = (platformId: string, objectType: UnifiedObjectType, operation: ObjectOperation): boolean =>
  registry.capabilityOf(platformId, objectType, operation);

/** For routes: 404 ENDPOINT_NOT_SUPPORTED_FOR_PLATFORM unless the platform supports it. */
export function requireCapability(platformId: string, objectType: UnifiedObjectType, operation: ObjectOperation): void {
  if (!capabilityOf(platformId, objectType, operation)) {
    throw new ServiceError(
      'ENDPOINT_NOT_SUPPORTED_FOR_PLATFORM',
      `${operationLabel(operation)} ${objectType} is not supported for platform ${platformId}`,
    );
  }
}

function operationLabel(operation: ObjectOperation): string {
  return operation === 'fetchByPlatformId' ? 'Fetching one' : operation.charAt(0).toUpperCase() + operation.slice(1);
}
