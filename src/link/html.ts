/**
 * HTML for the hosted link pages. Every interpolated value goes through the
 * `html` tag, which escapes it unless it is already Html built by the tag, so
 * a template cannot forget to escape.
 */

import { html, trustedHtml, type Html } from '../html/tag.ts';

// The tag itself is shared with SANDBOX's pages (src/html/tag.ts).
export { escapeHtml, html, type Html, type HtmlValue } from '../html/tag.ts';

export interface PageOptions {
  title: string;
  body: Html;
  /** CSP nonce of this response; inline scripts must carry it. */
  nonce: string;
  script?: string;
}

/** The shared layout: one centred card, readable without CSS or JavaScript. */
export function page(options: PageOptions): string {
  const script = options.script === undefined ? '' : html`<script nonce="${options.nonce}">${rawScript(options.script)}</script>`;
  return `<!doctype html>\n${
    html`<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="robots" content="noindex, nofollow">
<title>${options.title} · Ledgerport</title>
<style nonce="${options.nonce}">${rawCss(STYLE)}</style>
</head>
<body>
<main class="card">
<p class="brand"><span class="brand-mark" aria-hidden="true">L</span> Ledgerport</p>
${options.body}
</main>
<p class="footnote">Secured by Ledgerport. Your credentials are encrypted and only used to read and write the data you share.</p>
${script}
</body>
</html>`.text
  }`;
}

/** Our own constant script and CSS are trusted; "</" is still broken up so they can never end their element. */
function rawScript(source: string): Html {
  return trustedHtml(source.replaceAll('</', '<\\/'));
}
function rawCss(source: string): Html {
  return trustedHtml(source.replaceAll('</', ''));
}

const STYLE = `
:root { color-scheme: light dark; --bg: #eef2f7; --card: #ffffff; --text: #111827; --muted: #4b5563; --line: #d1d5db;
  --accent: #1d4ed8; --accent-hover: #1e40af; --accent-text: #ffffff; --soft: #f3f4f6; --error-bg: #fef2f2; --error: #991b1b;
  --ok: #166534; --ok-bg: #dcfce7; --focus: #2563eb; }
@media (prefers-color-scheme: dark) {
  :root { --bg: #0b1220; --card: #111a2e; --text: #f3f4f6; --muted: #b6bfcc; --line: #334155; --accent: #3b82f6;
    --accent-hover: #60a5fa; --accent-text: #0b1220; --soft: #1a2540; --error-bg: #3b1219; --error: #fecaca; --ok: #bbf7d0;
    --ok-bg: #14532d; --focus: #93c5fd; }
}
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body { margin: 0; min-height: 100vh; padding: 32px 16px; background: var(--bg); color: var(--text);
  font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
  display: flex; flex-direction: column; align-items: center; justify-content: center; }
.card { width: 100%; max-width: 440px; background: var(--card); border-radius: 16px; padding: 28px 28px 24px;
  box-shadow: 0 1px 2px rgb(15 23 42 / 6%), 0 12px 32px rgb(15 23 42 / 10%); border: 1px solid var(--line); }
.brand { display: flex; align-items: center; gap: 8px; margin: 0 0 20px; font-size: 14px; font-weight: 600; color: var(--muted); }
.brand-mark { display: inline-grid; place-items: center; width: 24px; height: 24px; border-radius: 6px; background: var(--accent);
  color: var(--accent-text); font-size: 13px; font-weight: 700; }
h1 { font-size: 22px; line-height: 1.3; margin: 0 0 6px; letter-spacing: -0.01em; }
h2 { font-size: 13px; text-transform: uppercase; letter-spacing: 0.06em; color: var(--muted); margin: 20px 0 8px; }
p { margin: 0 0 12px; }
.lead { color: var(--muted); margin-bottom: 20px; }
a { color: var(--accent); text-underline-offset: 2px; }
a:hover { color: var(--accent-hover); }
:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; border-radius: 6px; }
.platforms { list-style: none; margin: 0; padding: 0; display: grid; gap: 8px; }
.platform { display: flex; align-items: center; gap: 12px; padding: 12px 14px; border: 1px solid var(--line); border-radius: 12px;
  text-decoration: none; color: var(--text); background: var(--card); transition: border-color .15s, background .15s; }
.platform:hover { border-color: var(--accent); background: var(--soft); color: var(--text); }
.platform-logo { flex: none; display: inline-grid; place-items: center; width: 40px; height: 40px; border-radius: 10px;
  background: var(--soft); font-weight: 700; font-size: 15px; color: var(--accent); border: 1px solid var(--line); }
.platform-text { display: flex; flex-direction: column; min-width: 0; }
.platform-name { font-weight: 600; }
.platform-kind { font-size: 14px; color: var(--muted); }
.chevron { margin-left: auto; color: var(--muted); }
.field { margin-bottom: 16px; }
label { display: block; font-weight: 600; margin-bottom: 6px; }
.hint { display: block; font-weight: 400; font-size: 14px; color: var(--muted); }
input[type=text], input[type=password] { width: 100%; font: inherit; padding: 10px 12px; border-radius: 10px;
  border: 1px solid var(--line); background: var(--card); color: var(--text); }
input[type=text]:focus-visible, input[type=password]:focus-visible { outline-offset: 0; border-color: var(--focus); }
input[aria-invalid=true] { border-color: var(--error); }
.choice { display: flex; align-items: center; gap: 10px; padding: 12px 14px; border: 1px solid var(--line); border-radius: 12px;
  margin-bottom: 8px; font-weight: 500; cursor: pointer; }
.choice:hover, .choice:has(input:checked) { border-color: var(--accent); background: var(--soft); }
.choice input { width: 18px; height: 18px; accent-color: var(--accent); margin: 0; }
fieldset { border: 0; padding: 0; margin: 0 0 8px; }
legend { font-weight: 600; margin-bottom: 8px; padding: 0; }
button, .button { display: inline-flex; justify-content: center; align-items: center; width: 100%; font: inherit; font-weight: 600;
  padding: 11px 16px; border-radius: 10px; border: 0; background: var(--accent); color: var(--accent-text); cursor: pointer;
  text-decoration: none; }
button:hover, .button:hover { background: var(--accent-hover); color: var(--accent-text); }
button[disabled] { opacity: .7; cursor: progress; }
.alert { border-radius: 10px; padding: 12px 14px; margin: 0 0 16px; background: var(--error-bg); color: var(--error);
  border: 1px solid currentColor; }
.alert:empty { display: none; }
.success-mark { display: inline-grid; place-items: center; width: 48px; height: 48px; border-radius: 50%; background: var(--ok-bg);
  color: var(--ok); font-size: 26px; margin-bottom: 12px; }
.back { display: inline-block; margin-top: 16px; font-size: 15px; }
.secure { display: flex; gap: 8px; font-size: 14px; color: var(--muted); margin-top: 16px; }
.footnote { max-width: 440px; text-align: center; font-size: 13px; color: var(--muted); margin: 16px 0 0; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
`;
