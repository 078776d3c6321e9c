import { isIP } from 'node:net';
import type SMTPTransport from 'nodemailer/lib/smtp-transport';

/** This machine by name or address: nothing sent there crosses a network. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (bare === 'localhost' || bare.endsWith('.localhost')) return true;
  if (isIP(bare) === 4) return bare.startsWith('127.');
  if (isIP(bare) === 6) return bare === '::1' || /^::ffff:127\./.test(bare);
  return false;
}

/**
 * The nodemailer options for SMTP_URL (docs/decisions.md 541). Credentials never cross a network
 * in clear: to any host but this machine they go over implicit TLS (`smtps://`, or port 465) or
 * over STARTTLS, which is then required (`requireTLS`: a server that does not offer it, or a
 * downgrade that strips it, fails the send before AUTH). Only SMTP_INSECURE_PLAIN (tests) lets
 * them go plain. An address that switches TLS off for credentials is refused with the reason.
 */
export function smtpTransportOptions(smtpUrl: string, insecurePlain = false): SMTPTransport.Options {
  let url: URL;
  try {
    url = new URL(smtpUrl);
  } catch {
    throw new Error('SMTP_URL must be an smtp:// or smtps:// address, such as smtps://user:password@mail.example.com:465');
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:')
    throw new Error(`SMTP_URL must be an smtp:// or smtps:// address, got "${url.protocol}//…"`);
  const options = connectionOptions(url);
  const host = options.host ?? '';
  if (!host) throw new Error('SMTP_URL must name the mail server, such as smtps://user:password@mail.example.com:465');
  // Port 465 is implicit TLS, whichever scheme names it (nodemailer alone would speak plain there to smtp://).
  const implicitTls = url.protocol === 'smtps:' || options.port === 465;
  options.secure = implicitTls;
  const credentials = Boolean(options.auth);
  if (!credentials || implicitTls || isLoopbackHost(host) || insecurePlain) return options;
  if (options.ignoreTLS === true || options.requireTLS === false || options.tls?.rejectUnauthorized === false)
    throw new Error(
      `SMTP_URL sends its user name and password to ${host} without TLS (ignoreTLS, requireTLS=false or ` +
        'tls.rejectUnauthorized=false): remove that option so STARTTLS is required, or use smtps:// (port 465). ' +
        'SMTP_INSECURE_PLAIN=true allows a plain connection, for tests only.',
    );
  options.requireTLS = true;
  return options;
}

/**
 * What the address says, read as nodemailer reads an SMTP URL: the server, its port, the
 * credentials, and options as query parameters (`tls.*` nested), 'true'/'false' and numbers typed.
 */
function connectionOptions(url: URL): SMTPTransport.Options {
  const options: SMTPTransport.Options & Record<string, unknown> = { host: url.hostname.replace(/^\[|\]$/g, '') };
  if (url.port) options.port = Number(url.port);
  if (url.username) options.auth = { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) };
  for (const [key, raw] of url.searchParams) {
    const value = raw === 'true' ? true : raw === 'false' ? false : raw !== '' && !Number.isNaN(Number(raw)) ? Number(raw) : raw;
    if (key.startsWith('tls.')) options.tls = { ...options.tls, [key.slice(4)]: value };
    else if (!key.includes('.') && !(key in options)) options[key] = value;
  }
  return options;
}
