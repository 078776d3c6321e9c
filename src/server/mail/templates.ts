import type { Brand } from '../config';
import { escapeHtml } from '../html/escape-html';
import { providerRoleStatement } from '../../shared/rules/provider-identity';

/** Plain, accessible emails: a heading, a paragraph, one button-like link, and the same as text. */
export interface RenderedEmail {
  subject: string;
  text: string;
  html: string;
}

export interface EmailParts {
  subject: string;
  heading: string;
  body: string;
  action: string;
  url: string;
}

/** Any email of the portal: its words, laid out the one way, signed with the provider's role (loan and drawdown notices compose theirs). */
export function renderEmail(brand: Brand, parts: EmailParts): RenderedEmail {
  const legal = providerRoleStatement(brand);
  const text = `${parts.heading}\n\n${parts.body}\n\n${parts.action}: ${parts.url}\n\n${brand.productName}\n${brand.email} · ${brand.phone}\n${legal}\n`;
  const html = `<!doctype html><html lang="en-GB"><body style="font-family:Arial,sans-serif;color:#1a1a1a;line-height:1.5">
<h1 style="font-size:20px">${escapeHtml(parts.heading)}</h1>
<p>${escapeHtml(parts.body)}</p>
<p><a href="${escapeHtml(parts.url)}" style="display:inline-block;background:#0b3d91;color:#ffffff;padding:12px 20px;border-radius:6px;text-decoration:none">${escapeHtml(parts.action)}</a></p>
<p style="font-size:13px;color:#555">If the button does not work, copy this address into your browser: ${escapeHtml(parts.url)}</p>
<p style="font-size:13px;color:#555">${escapeHtml(brand.productName)} · ${escapeHtml(brand.email)} · ${escapeHtml(brand.phone)}</p>
<p style="font-size:13px;color:#555">${escapeHtml(legal)}</p>
</body></html>`;
  return { subject: parts.subject, text, html };
}

export type InvitationKind = 'admin' | 'lawyer' | 'customer';

const invitationCopy: Record<InvitationKind, { heading: string; body: string }> = {
  admin: {
    heading: 'An account has been created for you',
    body: 'An admin has created an account on your behalf. Set your password to join the platform.',
  },
  lawyer: {
    heading: 'Your law firm has created your account',
    body: 'Your law firm has created an account for you. Once you join you can start creating applications on your clients’ behalf.',
  },
  customer: {
    heading: 'Your lawyer has started an application for you',
    body: 'Your lawyer has started a funding application on your behalf. Set a password to join the platform and complete it.',
  },
};

export function invitationEmail(brand: Brand, kind: InvitationKind, url: string): RenderedEmail {
  const copy = invitationCopy[kind];
  return renderEmail(brand, { subject: `Join ${brand.productName}`, ...copy, action: 'Join platform', url });
}

export function resetEmail(brand: Brand, url: string): RenderedEmail {
  return renderEmail(brand, {
    subject: `Reset your ${brand.productName} password`,
    heading: 'Reset your password',
    body: 'We received a request to reset your password. The link below works once and expires in one hour. If you did not ask for this, you can ignore this email.',
    action: 'Reset password',
    url,
  });
}

/** A joined client told of another application their lawyer started for them (decision 344). */
export function newApplicationEmail(brand: Brand, url: string): RenderedEmail {
  return renderEmail(brand, {
    subject: `A new application on ${brand.productName}`,
    heading: 'Your lawyer has started another application for you',
    body: 'Your lawyer has started a new funding application on your behalf. Sign in with your usual email address and password to complete it.',
    action: 'Sign in',
    url,
  });
}
