import type { PublicStatus, PublicStatusAnswer } from '../../common/status-pages';

/** The status page, its badge and its feed as the public reads them: markup built from names only, all escaped. */

export const escapeHtml = (s: string) =>
    s.replace(
        /[&<>"']/g,
        (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string
    );

const LABEL: Record<PublicStatus, string> = {
    operational: 'All systems operational',
    degraded: 'Degraded performance',
    down: 'Outage',
};
const WORD: Record<PublicStatus, string> = { operational: 'Operational', degraded: 'Degraded', down: 'Down' };
const UPDATE_WORD = {
    investigating: 'Investigating',
    identified: 'Identified',
    monitoring: 'Monitoring',
    resolved: 'Resolved',
} as const;

// Colours chosen for 4.5:1 text contrast on both backgrounds (WCAG AA), and never the only signal: every state is
// also written out.
const STYLE = `
:root { color-scheme: light dark; --bg: #fff; --fg: #1a1a1a; --muted: #555; --card: #f5f5f5; --line: #ddd;
  --ok: #1b6e20; --warn: #8a4b00; --down: #b3261e; --none: #c8c8c8; }
@media (prefers-color-scheme: dark) { :root { --bg: #121212; --fg: #eee; --muted: #bbb; --card: #1e1e1e;
  --line: #333; --ok: #6fcf73; --warn: #ffb74d; --down: #ff8a80; --none: #444; } }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, sans-serif; background: var(--bg); color: var(--fg); }
main { max-width: 760px; margin: 0 auto; padding: 16px; }
h1 { font-size: 1.6rem; margin: 8px 0; overflow-wrap: anywhere; }
h2 { font-size: 1.2rem; margin: 24px 0 8px; }
h3 { font-size: 1rem; margin: 0; overflow-wrap: anywhere; }
p { margin: 4px 0; overflow-wrap: anywhere; }
.muted { color: var(--muted); }
.banner { padding: 12px 16px; border-radius: 8px; font-weight: 600; background: var(--card);
  border-left: 6px solid var(--ok); }
.banner.degraded { border-color: var(--warn); } .banner.down { border-color: var(--down); }
ul { list-style: none; padding: 0; margin: 0; }
.component, .incident { background: var(--card); border-radius: 8px; padding: 12px; margin: 8px 0; }
.row { display: flex; justify-content: space-between; gap: 8px; flex-wrap: wrap; }
.operational { color: var(--ok); } .degraded { color: var(--warn); } .down { color: var(--down); }
.bar { display: flex; gap: 1px; height: 28px; margin-top: 8px; }
.bar span { flex: 1; min-width: 0; border-radius: 1px; background: var(--none); }
.bar .d0 { background: var(--ok); } .bar .d1 { background: var(--warn); } .bar .d2 { background: var(--down); }
time { white-space: nowrap; }
`;

/** A day's cell: green at 99.9 % and above, amber above 95 %, red below; grey without checks. */
const dayClass = (uptime: number | null) => (uptime === null ? '' : uptime >= 99.9 ? 'd0' : uptime >= 95 ? 'd1' : 'd2');
const pct = (v: number | null) => (v === null ? 'no data' : `${v.toFixed(2)} %`);
const when = (iso: string) =>
    `<time datetime="${escapeHtml(iso)}">${escapeHtml(iso.slice(0, 16).replace('T', ' '))} UTC</time>`;

export function statusHtml(view: PublicStatusAnswer, feedUrl: string, subscribeUrl: string): string {
    const open = view.incidents.filter((i) => i.status !== 'resolved');
    const past = view.incidents.filter((i) => i.status === 'resolved');
    const incident = (i: PublicStatusAnswer['incidents'][number]) => `
<li class="incident"><div class="row"><h3>${escapeHtml(i.title)}</h3><span>${UPDATE_WORD[i.status]}</span></div>
<p class="muted">Started ${when(i.started_at)}${i.resolved_at ? ` · resolved ${when(i.resolved_at)}` : ''}</p>
${i.updates.map((u) => `<p><strong>${UPDATE_WORD[u.status]}</strong> (${when(u.at)}): ${escapeHtml(u.text)}</p>`).join('\n')}</li>`;
    return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(view.title)} status</title>
<link rel="alternate" type="application/atom+xml" title="${escapeHtml(view.title)} incidents" href="${escapeHtml(feedUrl)}">
<style>${STYLE}</style></head>
<body><main>
<h1>${escapeHtml(view.title)}</h1>
${view.description ? `<p class="muted">${escapeHtml(view.description)}</p>` : ''}
<p class="banner ${view.status}" role="status">${LABEL[view.status]}</p>
${open.length ? `<h2>Current incidents</h2><ul>${open.map(incident).join('')}</ul>` : ''}
<h2>Components</h2>
<ul>${view.components
        .map(
            (c) => `
<li class="component"><div class="row"><h3>${escapeHtml(c.name)}</h3><span class="${c.status}">${WORD[c.status]}</span></div>
<p class="muted">${pct(c.uptime_90d)} uptime over 90 days</p>
<div class="bar" role="img" aria-label="${escapeHtml(c.name)}: daily uptime over the last 90 days, ${c.days.filter((d) => d.uptime !== null && d.uptime < 99.9).length} days below 99.9 %">${c.days
                .map((d) => `<span class="${dayClass(d.uptime)}" title="${d.date}: ${pct(d.uptime)}"></span>`)
                .join('')}</div></li>`
        )
        .join('')}</ul>
${
    view.maintenance.length
        ? `<h2>Maintenance</h2><ul>${view.maintenance
              .map(
                  (m) =>
                      `<li class="incident"><p>${when(m.starts_at)} – ${when(m.ends_at)}</p><p>${escapeHtml(m.reason)}</p></li>`
              )
              .join('')}</ul>`
        : ''
}
<h2>Past incidents</h2>
${past.length ? `<ul>${past.map(incident).join('')}</ul>` : '<p class="muted">No incidents in the last 90 days.</p>'}
<h2>Get told</h2>
<form method="post" action="${escapeHtml(subscribeUrl)}" class="row">
<label for="email">E-mail address</label>
<input id="email" name="email" type="email" required autocomplete="email" style="flex: 1; min-width: 0; font: inherit">
<button type="submit" style="font: inherit">Subscribe</button>
</form>
<p class="muted">Or follow the <a href="${escapeHtml(feedUrl)}" style="color: inherit">Atom feed</a>.</p>
</main></body></html>
`;
}

const BADGE_COLOUR: Record<PublicStatus, string> = { operational: '#2e7d32', degraded: '#a15c00', down: '#c62828' };

/** A shields-style badge; widths from a fixed per-character estimate, as no font is measured server-side. */
export function statusBadge(status: PublicStatus): string {
    const left = 'status';
    const right = WORD[status].toLowerCase();
    const w = (s: string) => 10 + s.length * 7;
    const lw = w(left);
    const rw = w(right);
    return `<svg xmlns="http://www.w3.org/2000/svg" width="${lw + rw}" height="20" role="img" aria-label="${left}: ${right}">
<title>${left}: ${right}</title>
<rect width="${lw}" height="20" fill="#555"/><rect x="${lw}" width="${rw}" height="20" fill="${BADGE_COLOUR[status]}"/>
<g fill="#fff" font-family="Verdana,DejaVu Sans,sans-serif" font-size="11" text-anchor="middle">
<text x="${lw / 2}" y="14">${left}</text><text x="${lw + rw / 2}" y="14">${right}</text></g></svg>
`;
}

/** Atom 1.0: one entry per incident and one per update, newest first. */
export function statusFeed(view: PublicStatusAnswer, pageUrl: string, feedUrl: string): string {
    // Ids from times, not internal ids: stable across reads, and nothing internal leaves.
    const entries = view.incidents.flatMap((i) => [
        ...i.updates.map((u) => ({
            id: `${pageUrl}#incident-${i.started_at}-update-${u.at}`,
            title: `${i.title}: ${UPDATE_WORD[u.status]}`,
            at: u.at,
            text: u.text,
        })),
        {
            id: `${pageUrl}#incident-${i.started_at}`,
            title: i.title,
            at: i.resolved_at ?? i.started_at,
            text: i.resolved_at ? `Started ${i.started_at}, resolved ${i.resolved_at}` : `Started ${i.started_at}`,
        },
    ]);
    entries.sort((a, b) => b.at.localeCompare(a.at));
    const updated = entries[0]?.at ?? new Date(0).toISOString();
    return `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
<title>${escapeHtml(view.title)} status</title>
<id>${escapeHtml(feedUrl)}</id>
<link rel="self" href="${escapeHtml(feedUrl)}"/>
<link rel="alternate" href="${escapeHtml(pageUrl)}"/>
<updated>${updated}</updated>
<author><name>${escapeHtml(view.title)}</name></author>
${entries
    .map(
        (e) => `<entry><id>${escapeHtml(e.id)}</id><title>${escapeHtml(e.title)}</title><updated>${e.at}</updated>
<link href="${escapeHtml(pageUrl)}"/><content type="text">${escapeHtml(e.text)}</content></entry>`
    )
    .join('\n')}
</feed>
`;
}
