import { LINK_TEXT, type Message, notificationMessage } from './message';
import type { NotificationFacts, NotificationSubject } from './record';

/** Telegram's HTML parse mode needs exactly these three escaped; everything user-typed goes through it. */
export function escapeHtml(text: string): string {
    return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** The text of an HTML line: tags dropped, entities decoded (rows stored as Telegram HTML, and their summaries). */
export function plain(html: string): string {
    return html
        .replace(/<[^>]*>/g, '')
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&quot;/g, '"')
        .replace(/&amp;/g, '&');
}

/**
 * A message in Telegram HTML (parse_mode HTML): the heading in bold after its sign, asides in italics, the link as
 * an anchor, everything else escaped. Telegram is sent it, and every outbox row keeps it as its text.
 */
export function telegramHtml(m: Message): string {
    const lines = [
        `${m.icon} <b>${m.heading}</b> ${escapeHtml(m.name)}`,
        ...m.lines.map((l) => (l.aside ? `<i>${escapeHtml(l.text)}</i>` : escapeHtml(l.text))),
    ];
    if (m.url) lines.push(`<a href="${escapeHtml(m.url).replace(/"/g, '&quot;')}">${LINK_TEXT}</a>`);
    return lines.join('\n');
}

/** A notification's Telegram HTML, as its outbox rows keep it. */
export const formatNotification = (subject: NotificationSubject, n: NotificationFacts, nowMs: number): string =>
    telegramHtml(notificationMessage(subject, n, nowMs));
