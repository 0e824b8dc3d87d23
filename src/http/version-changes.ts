/**
 * The history of response changes between API versions, newest first. Each
 * entry downgrades the newest shape for requests naming an older version.
 * See docs/versions.md.
 */
import type { VersionRegistry } from './versioning.ts';

export function registerVersionChanges(_registry: VersionRegistry): void {
  // Resource-level changes are registered here by the read API (see docs/versions.md).
}
