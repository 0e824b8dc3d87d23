/**
 * The overview's webhook chart: delivered and failed deliveries per hour as an inline SVG drawn on the server (no
 * library, no script), each hour's pair of bars side by side (delivered left, failed right, each with a text title),
 * and the same numbers as a table for screen readers and anyone who prefers figures.
 */
import { html, type Html } from '../../html/tag.ts';

export interface DeliveryHour {
  hour: string;
  delivered: number;
  failed: number;
}

const WIDTH = 640;
const HEIGHT = 200;
const LEFT = 36;
const BOTTOM = 24;
const TOP = 10;

function hourLabel(iso: string): string {
  return `${iso.slice(11, 13)}:00`;
}

export function deliveryChart(hours: readonly DeliveryHour[], totals: { delivered: number; failed: number }): Html {
  const peak = Math.max(1, ...hours.map((h) => Math.max(h.delivered, h.failed)));
  const slot = (WIDTH - LEFT) / Math.max(1, hours.length);
  const bar = Math.max(2, Math.floor(slot / 2) - 2);
  const plot = HEIGHT - BOTTOM - TOP;
  const heightOf = (n: number): number => Math.round((n / peak) * plot);
  const bars = hours.map((h, i) => {
    const x = Math.round(LEFT + i * slot);
    const ok = heightOf(h.delivered);
    const bad = heightOf(h.failed);
    const label = i % 3 === 0 ? html`<text x="${x}" y="${HEIGHT - 6}">${hourLabel(h.hour)}</text>` : '';
    return html`<g><rect class="ok" x="${x}" y="${HEIGHT - BOTTOM - ok}" width="${bar}" height="${ok}"><title>${hourLabel(h.hour)} UTC: ${h.delivered} delivered</title></rect><rect class="bad" x="${x + bar + 1}" y="${HEIGHT - BOTTOM - bad}" width="${bar}" height="${bad}"><title>${hourLabel(h.hour)} UTC: ${h.failed} failed</title></rect>${label}</g>`;
  });
  const first = hours[0];
  const caption = `Webhook deliveries per hour since ${first === undefined ? '' : `${first.hour.slice(0, 16).replace('T', ' ')} UTC`}: ${totals.delivered} delivered, ${totals.failed} failed.`;
  const rows = hours.map(
    (h) =>
      html`<tr><th scope="row"><time datetime="${h.hour}">${h.hour.slice(0, 10)} ${hourLabel(h.hour)}</time></th><td class="num">${h.delivered}</td><td class="num">${h.failed}</td></tr>`,
  );
  return html`<div class="chart" data-testid="delivery-chart">
<p>${totals.delivered} delivered, ${totals.failed} failed in the last ${hours.length} hours.</p>
<svg role="img" aria-labelledby="delivery-chart-title" viewBox="0 0 ${WIDTH} ${HEIGHT}" width="100%" focusable="false">
<title id="delivery-chart-title">${caption}</title>
<line class="axis" x1="${LEFT}" y1="${HEIGHT - BOTTOM}" x2="${WIDTH}" y2="${HEIGHT - BOTTOM}"></line>
<text x="0" y="${TOP + 8}">${peak}</text><text x="0" y="${HEIGHT - BOTTOM}">0</text>
${bars}
</svg>
<p class="legend"><span class="key ok" aria-hidden="true"></span> Delivered (left bar of each hour) <span class="key bad" aria-hidden="true"></span> Failed (right bar)</p>
<details><summary>Deliveries per hour as a table</summary>
<table><caption>${caption}</caption><thead><tr><th scope="col">Hour (UTC)</th><th scope="col" class="num">Delivered</th><th scope="col" class="num">Failed</th></tr></thead><tbody>${rows}</tbody></table>
</details>
</div>`;
}
