/**
 * The console's icon: a pulse line on a dark square. Browsers ask for /favicon.ico whatever the page links, and a
 * 404 there is a red line in every browser console; an SVG answers both that request and the page's icon link.
 */
export const FAVICON_SVG =
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">' +
    '<rect width="32" height="32" rx="6" fill="#1e293b"/>' +
    '<path d="M3 17h7l3-8 5 15 3-7h8" fill="none" stroke="#22c55e" stroke-width="3" stroke-linecap="round" ' +
    'stroke-linejoin="round"/></svg>';
