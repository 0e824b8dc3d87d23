/** Every endpoint of the service, in one list per surface. */
import type { Endpoint } from '../http/contract.ts';
import healthz from './health/healthz.ts';
import readyz from './health/readyz.ts';
import createOrganization from './admin/organizations/create.ts';
import listOrganizations from './admin/organizations/list.ts';
import rotateCredentials from './admin/organizations/rotate-credentials.ts';

export const publicEndpoints: Endpoint[] = [healthz, readyz];
export const adminEndpoints: Endpoint[] = [createOrganization, listOrganizations, rotateCredentials];
export const versionedEndpoints: Endpoint[] = [];
