/**
 * Answers of a test app waiting to be checked against its OpenAPI document (test/support/contract-check.ts). The check
 * runs when the test that received them ends (test/support/contract-setup.ts), not while the answer leaves: compiling a
 * route's schema costs tens of milliseconds, which must neither slow the requests a test times against each other nor
 * count against its own timeout.
 */
export interface RecordedAnswer {
  /** The test running when the answer left, undefined in beforeAll and afterAll. */
  test: string | undefined;
  request: string;
  /** What is wrong with the answer; empty when it is as the document says. */
  problems: () => string[];
}

export interface ContractViolation {
  test: string | undefined;
  request: string;
  problems: string[];
}

const pending: RecordedAnswer[] = [];

export function recordAnswer(answer: RecordedAnswer): void {
  pending.push(answer);
}

/** Checks and forgets the answers `which` selects; returns those that break the document. */
export function takeViolations(which: (answer: RecordedAnswer) => boolean = () => true): ContractViolation[] {
  const taken = pending.filter(which);
  for (const answer of taken) pending.splice(pending.indexOf(answer), 1);
  return taken.map((answer) => ({ test: answer.test, request: answer.request, problems: answer.problems() })).filter((v) => v.problems.length > 0);
}

export function describeViolations(violations: readonly ContractViolation[]): string {
  const lines = violations.slice(0, 20).map((v) => `- ${v.request}${v.test === undefined ? ' (outside any test)' : ''}: ${v.problems.join('; ')}`);
  const more = violations.length > 20 ? [`… and ${violations.length - 20} more`] : [];
  return [`${violations.length} response(s) do not match /openapi.json (test/support/contract-check.ts):`, ...lines, ...more].join('\n');
}
