/**
 * The dashboard's only style sheet and script, served from this process (/dashboard/assets/…): no CDN, no font or
 * script from elsewhere, no build step. Pages work without the script; it adds live updates, copy buttons,
 * confirmations and the environment switch on change.
 */
import { createHash } from 'node:crypto';

export const DASHBOARD_CSS = `
:root { --fg: #1b1f24; --muted: #57606a; --line: #d0d7de; --bg: #f6f8fa; --accent: #0a58ca; --ok: #1a7f37; --bad: #b42318; --warn: #8a5a00; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: #fff; }
a { color: var(--accent); }
.skip { position: absolute; left: -999px; } .skip:focus { left: 8px; top: 8px; background: #fff; padding: 4px 8px; z-index: 2; }
.top { display: flex; flex-wrap: wrap; gap: 16px; align-items: center; justify-content: space-between; padding: 10px 20px; border-bottom: 1px solid var(--line); background: var(--bg); }
.brand { margin: 0; font-weight: 600; } .brand a { color: var(--fg); text-decoration: none; }
.brand-mark { display: inline-block; width: 24px; height: 24px; border-radius: 6px; background: var(--accent); color: #fff; text-align: center; line-height: 24px; }
.org { color: var(--muted); font-weight: 400; margin-left: 8px; }
.env-switch, .who { display: flex; gap: 8px; align-items: center; } .who form { display: inline; }
.role { color: var(--muted); }
.frame { display: flex; min-height: calc(100vh - 60px); }
nav { width: 200px; flex: none; border-right: 1px solid var(--line); padding: 12px 0; }
nav ul { list-style: none; margin: 0; padding: 0; } nav a { display: block; padding: 6px 20px; text-decoration: none; color: var(--fg); }
nav a[aria-current="page"] { background: #e7f0ff; border-left: 3px solid var(--accent); font-weight: 600; }
main { flex: 1; padding: 16px 28px 48px; min-width: 0; }
h1 { font-size: 24px; margin: 8px 0 16px; } h2 { font-size: 18px; margin: 28px 0 10px; } h3 { font-size: 16px; }
.env-banner { margin: 0 0 8px; font-size: 13px; padding: 2px 8px; display: inline-block; border-radius: 4px; }
.env-banner.sandbox { background: #fff4d6; color: #5c3d00; } .env-banner.production { background: #ffe3e0; color: #7a1c12; }
.notice { background: #e6f4ea; border: 1px solid #a6d8b4; padding: 8px 12px; border-radius: 6px; }
.problem { background: #fdecea; border: 1px solid #f1aeb5; padding: 8px 12px; border-radius: 6px; color: #7a1c12; }
.callout { border: 1px solid var(--accent); padding: 8px 12px; border-radius: 6px; margin: 8px 0; }
a.button { display: inline-block; padding: 5px 14px; border-radius: 6px; background: var(--accent); color: #fff; text-decoration: none; }
table { border-collapse: collapse; width: 100%; margin: 8px 0; } th, td { text-align: left; padding: 6px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { font-size: 13px; color: var(--muted); font-weight: 600; } td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
.badge { display: inline-block; padding: 0 8px; border-radius: 10px; font-size: 13px; background: #eaeef2; color: var(--fg); }
.badge.active, .badge.ok, .badge.succeeded, .badge.delivered, .badge.completed { background: #dafbe1; color: #0f5323; }
.badge.needs_reauth, .badge.failed, .badge.disabled, .badge.unhealthy, .badge.bad { background: #ffebe9; color: #82071e; }
.badge.not_ready, .badge.running, .badge.queued, .badge.pending, .badge.scheduled { background: #fff8c5; color: #4d2d00; }
form.inline { display: inline; } .stack > * + * { margin-top: 8px; }
label { font-weight: 600; } .field { margin: 8px 0; } .field label { display: block; margin-bottom: 2px; }
input[type=text], input[type=email], input[type=password], input[type=url], input[type=number], input[type=datetime-local], select, textarea { font: inherit; padding: 5px 8px; border: 1px solid #8c959f; border-radius: 6px; max-width: 100%; }
input[type=text], input[type=email], input[type=password], input[type=url], textarea { width: 28rem; }
button { font: inherit; padding: 5px 14px; border-radius: 6px; border: 1px solid var(--accent); background: var(--accent); color: #fff; cursor: pointer; }
button.secondary { background: #fff; color: var(--accent); } button.danger { background: var(--bad); border-color: var(--bad); } button.link { background: none; border: none; color: var(--accent); padding: 0; text-decoration: underline; }
.cards { display: flex; flex-wrap: wrap; gap: 12px; } .card { border: 1px solid var(--line); border-radius: 8px; padding: 10px 14px; min-width: 140px; }
.card .n { font-size: 24px; font-weight: 600; }
progress { width: 160px; height: 12px; } .muted { color: var(--muted); } .mono { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 13px; }
pre { background: var(--bg); border: 1px solid var(--line); padding: 10px; border-radius: 6px; overflow: auto; max-height: 480px; font-size: 13px; }
.secret { background: #fff8c5; border: 1px solid #d4a72c; padding: 10px; border-radius: 6px; } .secret code { word-break: break-all; }
.pager { display: flex; gap: 12px; margin: 8px 0; } .filters { display: flex; flex-wrap: wrap; gap: 12px; align-items: end; margin: 8px 0; }
.actions { display: flex; flex-wrap: wrap; gap: 12px; align-items: start; } .actions form { border: 1px solid var(--line); border-radius: 8px; padding: 10px; }
.chart { max-width: 640px; } .chart rect.ok { fill: #2da44e; } .chart rect.bad { fill: #cf222e; } .chart text { font-size: 11px; fill: var(--muted); }
.sign-in { max-width: 420px; margin: 60px auto; border: 1px solid var(--line); border-radius: 10px; padding: 24px; }
.sign-in input { width: 100%; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 4px 16px; } dt { font-weight: 600; } dd { margin: 0; }
/* OVERVIEW AND EXPLORER */
ul.plain { list-style: none; margin: 0; padding: 0; } .card a { text-decoration: none; color: var(--fg); display: flex; flex-direction: column; gap: 4px; }
.chart svg { display: block; height: auto; } .chart line.axis { stroke: var(--line); }
.legend .key { display: inline-block; width: 12px; height: 12px; vertical-align: middle; margin-left: 8px; } .legend .key.ok { background: #2da44e; } .legend .key.bad { background: #cf222e; }
.running-sync { border: 1px solid var(--line); border-radius: 8px; padding: 4px 14px 8px; margin: 8px 0; } .running-sync h3 { margin: 8px 0 2px; }
input[type=text].short { width: 12rem; } caption { text-align: left; padding: 4px 0; }
/* CONNECTIONS */
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 4px 16px; margin: 8px 0; } dl.facts dt { font-weight: 600; color: var(--muted); } dl.facts dd { margin: 0; }
fieldset { border: 1px solid var(--line); border-radius: 6px; } label.check { font-weight: 400; display: inline-block; margin-right: 8px; }
`;

export const DASHBOARD_JS = `/* Ledgerport dashboard: progressive enhancement only; every page works without it. */
(function () {
  'use strict';
  var env = document.body ? document.body.getAttribute('data-environment') : null;

  function each(selector, fn) { Array.prototype.forEach.call(document.querySelectorAll(selector), fn); }

  // The environment switch submits on change, back to the page it was on.
  each('[data-autosubmit]', function (select) {
    var form = select.form;
    var back = form.querySelector('input[name="back"]');
    if (back) back.value = location.pathname + location.search;
    var button = form.querySelector('button');
    if (button) button.hidden = true;
    select.addEventListener('change', function () { form.submit(); });
  });

  // Forms that destroy something ask first.
  each('form[data-confirm]', function (form) {
    form.addEventListener('submit', function (event) {
      if (!window.confirm(form.getAttribute('data-confirm'))) event.preventDefault();
    });
  });

  // Copy buttons copy the text of the element they name.
  each('[data-copy]', function (button) {
    button.hidden = false;
    button.addEventListener('click', function () {
      var target = document.getElementById(button.getAttribute('data-copy'));
      if (!target || !navigator.clipboard) return;
      navigator.clipboard.writeText(target.textContent.trim()).then(function () { button.textContent = 'Copied'; }, function () {});
    });
  });

  // Live regions re-fetch their server-rendered markup every few seconds while the tab is visible.
  each('[data-live]', function (region) {
    var url = region.getAttribute('data-live');
    var every = Number(region.getAttribute('data-live-every') || 2000);
    var busy = false;
    function refresh() {
      if (busy || document.hidden) return;
      busy = true;
      fetch(url, { credentials: 'same-origin', headers: { 'x-ledgerport-environment': env || 'sandbox' } })
        .then(function (response) { return response.ok ? response.text() : null; })
        .then(function (markup) { if (markup !== null && markup !== region.innerHTML) region.innerHTML = markup; })
        .catch(function () {})
        .then(function () { busy = false; });
    }
    window.setInterval(refresh, every);
  });
})();
`;

/** The tab's icon (the brand mark): served here, so the browser does not ask for a /favicon.ico the service lacks. */
export const DASHBOARD_ICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#0a58ca"/><text x="16" y="23" font-family="system-ui, sans-serif" font-size="20" font-weight="700" fill="#fff" text-anchor="middle">L</text></svg>`;

/** The service's name beside its icon: the top bar of the API reference at /docs (src/app.ts). */
export const WORDMARK = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 190 40" width="190" height="40"><title>Ledgerport</title><rect x="2" y="4" width="32" height="32" rx="7" fill="#0a58ca"/><text x="18" y="27" font-family="system-ui, sans-serif" font-size="20" font-weight="700" fill="#fff" text-anchor="middle">L</text><text x="44" y="28" font-family="system-ui, sans-serif" font-size="22" font-weight="700" fill="#fff">Ledgerport</text></svg>`;

export const ASSET_VERSION = createHash('sha256').update(DASHBOARD_CSS).update(DASHBOARD_JS).digest('hex').slice(0, 12);
