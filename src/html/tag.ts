/**
 * The HTML template tag of every page the process serves: the hosted link pages (src/link/html.ts) and SANDBOX's
 * own pages (packages/sandbox/src/pages.ts). Every interpolated value goes through the `html` tag, which escapes it
 * unless it is already Html built by the tag, so a template cannot forget to escape.
 */

const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;', '`': '&#96;' };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"'`]/g, (c) => ESCAPES[c] ?? c);
}

const HTML = Symbol('html');

/** Markup that is already safe (built by the `html` tag). */
export interface Html {
  readonly [HTML]: true;
  readonly text: string;
}

export type HtmlValue = string | number | Html | null | undefined | false | readonly HtmlValue[];

function render(value: HtmlValue): string {
  if (value === null || value === undefined || value === false) return '';
  if (typeof value === 'string') return escapeHtml(value);
  if (typeof value === 'number') return String(value);
  if (isHtml(value)) return value.text;
  return value.map(render).join('');
}

function isHtml(value: Html | readonly HtmlValue[]): value is Html {
  return HTML in value;
}

export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): Html {
  let text = strings[0] ?? '';
  values.forEach((value, i) => {
    text += render(value) + (strings[i + 1] ?? '');
  });
  return { [HTML]: true, text };
}

/** Markup the caller vouches for as it is: only its own constants (a style sheet, a script), never input. */
export function trustedHtml(text: string): Html {
  return { [HTML]: true, text };
}
