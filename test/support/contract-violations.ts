/**
 * Answers of a test app that break its OpenAPI document (test/support/contract-check.ts), kept until the test that
 * received them ends: test/support/contract-setup.ts then fails it with the list.
 */
export interface ContractViolation {
  /** The test running when the answer left, undefined in beforeAll and afterAll. */
  test: string | undefined;
  request: string;
  problems: string[];
}

const pending: ContractViolation[] = [];

export function recordViolation(violation: ContractViolation): void {
  pending.push(violation);
}

/** Removes and returns the violations `which` selects. */
export function takeViolations(which: (violation: ContractViolation) => boolean = () => true): ContractViolation[] {
  const taken = pending.filter(which);
  for (const violation of taken) pending.splice(pending.indexOf(violation), 1);
  return taken;
}

export function describeViolations(violations: readonly ContractViolation[]): string {
  const lines = violations.slice(0, 20).map((v) => `- ${v.request}${v.test === undefined ? ' (outside any test)' : ''}: ${v.problems.join('; ')}`);
  const more = violations.length > 20 ? [`… and ${violations.length - 20} more`] : [];
  return [`${violations.length} response(s) do not match /openapi.json (test/support/contract-check.ts):`, ...lines, ...more].join('\n');
}
