import { desc } from 'drizzle-orm';
import type { Database } from '../db/connection';
import { emails } from '../db/schema';
import { escapeHtml } from '../html/escape-html';

export interface MailboxEmail {
  id: number;
  to: string;
  subject: string;
  text: string;
  html: string;
  createdAt: Date;
  sentAt: Date | null;
  applicationId: number | null;
  userType: string;
  links: string[];
}

/** Every email of the outbox, newest first, with the links it carries (development mailbox). */
export async function readMailbox(db: Database): Promise<MailboxEmail[]> {
  const rows = await db.select().from(emails).orderBy(desc(emails.id));
  return rows.map((row) => ({
    id: row.id,
    to: row.toAddress,
    subject: row.subject,
    text: row.textBody,
    html: row.htmlBody,
    createdAt: row.createdAt,
    sentAt: row.sentAt,
    applicationId: row.applicationId,
    userType: row.userType,
    links: [...new Set([...row.htmlBody.matchAll(/href="([^"]+)"/g)].map((m) => m[1]!.replace(/&amp;/g, '&')))],
  }));
}

/**
 * The development mailbox page: plain HTML, no script. Each email's text is shown with its links
 * made relative, so they open on whatever host the developer is browsing.
 */
export function renderMailboxPage(list: MailboxEmail[], publicUrl: string): string {
  const local = (url: string) => (url.startsWith(publicUrl) ? url.slice(publicUrl.length) || '/' : url);
  const items = list
    .map(
      (e) => `<article class="mail">
  <h2>${escapeHtml(e.subject)}</h2>
  <p class="meta">To <strong>${escapeHtml(e.to)}</strong> · ${e.createdAt.toISOString().slice(0, 16).replace('T', ' ')} UTC${e.sentAt ? ' · sent' : ' · not sent (no SMTP)'}</p>
  <pre>${escapeHtml(e.text)}</pre>
  <ul>${e.links.map((l) => `<li><a href="${escapeHtml(local(l))}">${escapeHtml(local(l))}</a></li>`).join('')}</ul>
</article>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en-GB"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Development mailbox</title>
<style>body{font-family:system-ui,sans-serif;margin:0 auto;max-width:60rem;padding:1rem;color:#1a1a1a}
.mail{border:1px solid #ccc;border-radius:8px;padding:1rem;margin:1rem 0}.meta{color:#444}
pre{white-space:pre-wrap;font:inherit;background:#f6f6f6;padding:.75rem;border-radius:6px}a{color:#0b3d91}</style>
</head><body><main><h1>Development mailbox</h1>
<p>Every email the portal has written, newest first. This page exists only outside production mode.</p>
${items || '<p>No emails yet.</p>'}
</main></body></html>`;
}
