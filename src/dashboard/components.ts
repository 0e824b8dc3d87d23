/** Small pieces every dashboard page uses. */
import { html, type Html } from '../html/tag.ts';
import type { ApiAnswer } from './api-client.ts';

/** A timestamp as UTC text a person reads, in a <time> element machines read. */
export function when(iso: string | null | undefined): Html {
  if (iso === null || iso === undefined || iso === '') return html`<span class="muted">never</span>`;
  const text = iso.replace('T', ' ').replace(/\.\d+Z$|Z$/, ' UTC');
  return html`<time datetime="${iso}">${text}</time>`;
}

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A status as text in a badge: the colour repeats the word, never replaces it. */
export function badge(status: string, testId?: string): Html {
  return html`<span class="badge ${status.replace(/[^a-z_]/gi, '')}"${testId === undefined ? '' : html` data-testid="${testId}"`}>${status}</span>`;
}

/** A duration as people say it: ms, seconds, minutes. */
export function duration(ms: number | null): string {
  if (ms === null) return '';
  if (ms < 1000) return `${ms} ms`;
  const seconds = Math.round(ms / 100) / 10;
  return seconds < 120 ? `${seconds} s` : `${Math.round(seconds / 6) / 10} min`;
}

export function csrfField(csrfToken: string): Html {
  return html`<input type="hidden" name="_csrf" value="${csrfToken}">`;
}

/** The API's refusal, as the page shows it: its code and its own message. */
export function apiProblem<T>(answer: ApiAnswer<T>): string {
  return answer.ok ? '' : `${answer.error.error_message} (${answer.error.error_code})`;
}

/** A block for a failed read: the page still renders, saying what went wrong. */
export function failedRead<T>(answer: ApiAnswer<T>): Html {
  return html`<p class="problem" role="alert">${apiProblem(answer)}</p>`;
}
