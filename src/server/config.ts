import { createPrivateKey } from 'node:crypto';
import fs from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { providerRoles, type ProviderRole } from '../shared/rules/provider-identity';
import { smtpTransportOptions } from './mail/smtp-options';

/** Every setting, read once from the environment, with defaults for the embedded setup. */
export interface Config {
  port: number;
  host: string;
  /** Where the embedded database and uploaded files live. */
  dataDir: string;
  /** A PostgreSQL server; when absent, the embedded PGlite under dataDir is used. */
  databaseUrl: string | undefined;
  /** SMTP server for real mail; when absent, mail stays in the outbox (development mailbox). */
  smtpUrl: string | undefined;
  /**
   * SMTP_INSECURE_PLAIN=true, for tests only: credentials may go to a mail server on another host
   * over a plain connection (docs/decisions.md 541). Refused in production.
   */
  smtpInsecurePlain: boolean;
  mailFrom: string;
  /** The address links in emails point at. */
  publicUrl: string;
  production: boolean;
  /** Seed demo accounts and data into an empty database. */
  seedDemo: boolean;
  /**
   * Which proxies in front may set X-Forwarded-For (the client address counts for sign-in limits):
   * false (none), a number of hops, or a comma-separated list of proxy addresses or CIDR ranges.
   * Never "all": then any client could claim any address.
   */
  trustProxy: false | number | string;
  /** The development mailbox: only outside production and only while mail is not really sent. */
  devMailbox: boolean;
  /** DEV_MAILBOX=1: the development mailbox answers any client, not only this machine's (loopback). */
  devMailboxAnyClient: boolean;
  /** Where the built PWA is served from. */
  staticDir: string;
  brand: Brand;
  /**
   * METRICS_TOKEN: /metrics answers a scrape that sends it as a bearer token; without it /metrics
   * is not served at all (docs/decisions.md 562).
   */
  metricsToken: string | undefined;
  /**
   * SESSION_CACHE=off: every request looks its session up in the database, as before the cache
   * (docs/decisions.md 610-612); for a database reached through a pooler that drops LISTEN.
   */
  sessionCache: boolean;
  /**
   * Where uploaded and generated files are kept (FILES_STORAGE; docs/decisions.md: 350): in the
   * PostgreSQL database (the default with DATABASE_URL, so every process on every machine reads
   * them) or in the local folder filesDir (the default with the embedded database).
   */
  filesStorage: 'postgres' | 'local';
  /** The local folder of files: FILES_DIR, default DATA_DIR/files, or 'memory://' (tests). */
  filesDir: string;
  /** Where postcode lookups go: the built-in table (demo addresses) or Ideal Postcodes. */
  postcode: PostcodeConfig;
  /** How long the server waits for clients and for its own heavy work (README: Limits and timeouts). */
  timeouts: Timeouts;
  /**
   * The provider, the company that runs the portal, as the footer, emails and contract documents
   * name it, with its legal role (docs/decisions.md: 281, 495-497).
   */
  provider: ProviderDetails;
  /** Electronic signature of the contract documents (docs/decisions.md: 283-285). */
  esign: EsignConfig;
  /** Reminders of what keeps waiting on a person (README: Reminders; docs/decisions.md 693-700). */
  reminders: ReminderConfig;
  /** Web push: the VAPID keys and subject, and how long one send may take (docs/decisions.md 673-684). */
  push: PushConfig;
}

/**
 * REMINDER_AFTER_HOURS, REMINDER_EVERY_HOURS, REMINDER_LIMIT: a person is reminded once a thing has
 * waited on them `afterHours`, again every `everyHours`, at most `limit` times. Any of them 0: no
 * reminders at all.
 */
export interface ReminderConfig {
  afterHours: number;
  everyHours: number;
  limit: number;
}

export interface PushConfig {
  /**
   * VAPID_PUBLIC_KEY / VAPID_PRIVATE_KEY (base64url: the uncompressed P-256 point and the 32-byte
   * private value, as `web-push generate-vapid-keys` prints them). Absent: a pair is made at the
   * first start and kept in the database (docs/decisions.md 675).
   */
  vapidKeys: { publicKey: string; privateKey: string } | undefined;
  /** VAPID_SUBJECT: how push services reach the operator, a mailto: or https: address. Default mailto: the brand's email. */
  subject: string;
  /** PUSH_TIMEOUT_MS: how long one send to a push service may take before it is retried later. */
  sendTimeoutMs: number;
  /**
   * PUSH_SERVICE_HOSTS: the push services a device's endpoint may name in production, comma-separated
   * host names, each with its sub-domains. Default: the four browsers' own (docs/decisions.md 701).
   */
  serviceHosts: readonly string[];
}

export interface ProviderDetails {
  name: string;
  address: string;
  companyNumber: string;
  regulatorReference: string;
  phone: string;
  email: string;
  /** PROVIDER_ROLE: the provider lends itself (default), or is a credit broker for `lender`. */
  role: ProviderRole;
  /** Who makes the loans, as the Credit Agreement names the lender: the provider itself when it lends. */
  lender: LenderDetails;
}

export interface LenderDetails {
  name: string;
  address: string;
  companyNumber: string;
  regulatorReference: string;
}

export interface EsignConfig {
  /**
   * ESIGN_PROVIDER: who new envelopes are made with: the built-in provider (the portal's own signing
   * page, the default) or DocuSign (docusign, with the DOCUSIGN_* settings; docs/decisions.md 520-534).
   */
  provider: 'builtin' | 'docusign';
  /** The DocuSign settings: present exactly when ESIGN_PROVIDER=docusign. */
  docusign: DocusignConfig | undefined;
  /**
   * ESIGN_P12_PATH / ESIGN_P12_PASSWORD: the provider's signing certificate. When absent, a
   * self-signed one is made at the first signature and kept in the database (decision 284).
   */
  p12Path: string | undefined;
  p12Password: string;
  /**
   * ESIGN_TSA_URL (ESIGN_TSA_USERNAME / ESIGN_TSA_PASSWORD for HTTP Basic): the RFC 3161
   * time-stamping authority whose token makes each signature PAdES B-T (docs/decisions.md 477).
   * Absent: signatures are B-B, their time the server's clock.
   */
  tsa: { url: string; username: string | undefined; password: string | undefined } | undefined;
  /**
   * ESIGN_TSA_TIMEOUT_MS: how long one request to the authority, or for a certificate's issuer or
   * revocation data, may take before signing goes on without it (decision 479).
   */
  fetchTimeoutMs: number;
}

/** DocuSign's eSignature REST API with the JWT grant (docs/decisions.md 520-534). */
export interface DocusignConfig {
  /** DOCUSIGN_INTEGRATION_KEY: the integration's client id (a GUID); the JWT's `iss`. */
  integrationKey: string;
  /** DOCUSIGN_USER_ID: the DocuSign user the portal acts as (a GUID); the JWT's `sub`. */
  userId: string;
  /** DOCUSIGN_ACCOUNT_ID: the account envelopes are made in (its GUID or its number). */
  accountId: string;
  /** DOCUSIGN_BASE_PATH: the account's REST base, e.g. https://demo.docusign.net/restapi (no trailing slash). */
  basePath: string;
  /** DOCUSIGN_OAUTH_BASE: the authentication service's origin (https://account-d.docusign.com by default). */
  oauthBase: string;
  /** DOCUSIGN_PRIVATE_KEY: the integration's RSA private key, as PEM (read from the file when a path is given). */
  privateKey: string;
  /** DOCUSIGN_CONNECT_HMAC_KEY: the Connect HMAC keys (comma-separated while one is being replaced). */
  connectHmacKeys: string[];
  /** DOCUSIGN_TIMEOUT_MS: how long one call to DocuSign may take. */
  timeoutMs: number;
}

/** Milliseconds; each is set by the environment variable of the same name in capitals. */
export interface Timeouts {
  /** The whole request (headers and body) must have arrived within this: a slow body is cut off. */
  requestTimeoutMs: number;
  /** The request headers must have arrived within this. */
  headersTimeoutMs: number;
  /** A connection with no bytes either way for this long is closed (longer than pdfTimeoutMs). */
  connectionTimeoutMs: number;
  /** An idle kept-alive connection is closed after this. */
  keepAliveTimeoutMs: number;
  /** Laying out an application PDF may take this long; then 503 `pdfTimeout`. */
  pdfTimeoutMs: number;
  /**
   * An idempotency claim with no answer is taken over after this: the claim of a process that
   * died mid-request (a request that ended without an answer releases its claim at once).
   */
  idempotencyLeaseMs: number;
  /**
   * SIGTERM or SIGINT: requests in flight may finish within this; then they are ended and the
   * database refuses their work (docs/decisions.md 565-566).
   */
  shutdownTimeoutMs: number;
  /**
   * SIGTERM or SIGINT: /readyz answers 503 for this long before the listener closes, so a load
   * balancer's health check takes the process out first (0: close at once).
   */
  shutdownDrainMs: number;
}

export interface PostcodeConfig {
  provider: 'builtin' | 'idealPostcodes';
  /** Ideal Postcodes: the key, the API origin (a fake in tests) and how long to wait for it. */
  idealPostcodesApiKey: string | undefined;
  idealPostcodesUrl: string;
  timeoutMs: number;
}

/** What GET /config answers (the BrandConfig of the contract). */
export interface Brand {
  productName: string;
  /** The provider's name (one identity: the same as provider.name). */
  companyName: string;
  providerRole: ProviderRole;
  lenderName: string;
  phone: string;
  email: string;
  termsUrl: string;
  privacyUrl: string;
}

type Env = Record<string, string | undefined>;

/** The VAPID settings: both keys or neither, each of the right length; a subject push services accept. */
function pushConfig(env: Env): PushConfig {
  const publicKey = env.VAPID_PUBLIC_KEY?.trim() || undefined;
  const privateKey = env.VAPID_PRIVATE_KEY?.trim() || undefined;
  if (Boolean(publicKey) !== Boolean(privateKey))
    throw new Error(
      'VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY go together: set both, or neither (a pair is then made at the first start)',
    );
  if (publicKey && !isBase64urlOfLength(publicKey, 65))
    throw new Error('VAPID_PUBLIC_KEY must be a P-256 public key, base64url (65 bytes: 87 characters)');
  if (privateKey && !isBase64urlOfLength(privateKey, 32))
    throw new Error('VAPID_PRIVATE_KEY must be a P-256 private key, base64url (32 bytes: 43 characters)');
  const subject = env.VAPID_SUBJECT?.trim() || `mailto:${env.BRAND_EMAIL || 'support@portal.test'}`;
  if (!/^(mailto:[^@\s]+@[^@\s]+|https:\/\/[^\s]+)$/.test(subject))
    throw new Error(`VAPID_SUBJECT must be a mailto: or https: address, got "${subject}"`);
  return {
    vapidKeys: publicKey && privateKey ? { publicKey, privateKey } : undefined,
    subject,
    sendTimeoutMs: integer(env.PUSH_TIMEOUT_MS, 10_000, 'PUSH_TIMEOUT_MS') || 10_000,
    serviceHosts: pushServiceHosts(env.PUSH_SERVICE_HOSTS),
  };
}

/**
 * The push services of the browsers the portal supports, each host with its sub-domains: Chrome's
 * and the other Chromium browsers' (Firebase Cloud Messaging), Firefox's (Mozilla's autopush),
 * Safari's (Apple's web push) and Edge's (Windows Push Notification Services). In production an
 * endpoint elsewhere is refused (docs/decisions.md 701); PUSH_SERVICE_HOSTS replaces the list.
 */
export const KNOWN_PUSH_SERVICE_HOSTS: readonly string[] = [
  'fcm.googleapis.com',
  'updates.push.services.mozilla.com',
  'push.apple.com',
  'notify.windows.com',
];

/** A host name as DNS writes it: labels of letters, digits and inner hyphens, at least two of them. */
const HOST_NAME = /^(?!-)[a-z0-9-]{1,63}(?<!-)(\.(?!-)[a-z0-9-]{1,63}(?<!-))+$/;

function pushServiceHosts(value: string | undefined): readonly string[] {
  if (!value?.trim()) return KNOWN_PUSH_SERVICE_HOSTS;
  const hosts = value.split(',').map((host) => host.trim().toLowerCase());
  const wrong = hosts.find((host) => !HOST_NAME.test(host) || isIP(host) !== 0);
  if (wrong !== undefined)
    throw new Error(`PUSH_SERVICE_HOSTS must be host names separated by commas (fcm.googleapis.com,…), got "${wrong}"`);
  return hosts;
}

function isBase64urlOfLength(value: string, bytes: number): boolean {
  return /^[A-Za-z0-9_-]+$/.test(value) && Buffer.from(value, 'base64url').length === bytes;
}

/** A setting that is on unless set to off. */
function onOff(value: string | undefined, name: string): boolean {
  const setting = (value || 'on').toLowerCase();
  if (setting !== 'on' && setting !== 'off') throw new Error(`${name} must be "on" or "off", got "${value}"`);
  return setting === 'on';
}

export function loadConfig(env: Env = process.env): Config {
  const production = env.NODE_ENV === 'production';
  const port = integer(env.PORT, 3000, 'PORT');
  const host = env.HOST || '127.0.0.1';
  const provider = providerDetails(env);
  return {
    port,
    host,
    dataDir: path.resolve(env.DATA_DIR || './data'),
    databaseUrl: env.DATABASE_URL || undefined,
    smtpUrl: env.SMTP_URL || undefined,
    smtpInsecurePlain: smtpInsecurePlain(env, production),
    mailFrom: env.MAIL_FROM || 'Litigation Funding Portal <no-reply@portal.test>',
    publicUrl: (env.PUBLIC_URL || `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`).replace(/\/+$/, ''),
    production,
    seedDemo: env.SEED_DEMO ? env.SEED_DEMO === '1' : !production,
    trustProxy: trustProxy(env.TRUST_PROXY),
    devMailbox: !production && !env.SMTP_URL,
    devMailboxAnyClient: env.DEV_MAILBOX === '1',
    staticDir: path.resolve(env.STATIC_DIR || './dist'),
    // Tests keep uploads in memory unless told otherwise, so no run leaves files behind.
    filesDir:
      env.FILES_DIR === 'memory://'
        ? 'memory://'
        : env.FILES_DIR
          ? path.resolve(env.FILES_DIR)
          : env.NODE_ENV === 'test'
            ? 'memory://'
            : path.join(path.resolve(env.DATA_DIR || './data'), 'files'),
    filesStorage: filesStorage(env),
    postcode: postcodeConfig(env),
    timeouts: timeouts(env),
    provider,
    esign: esignConfig(env),
    reminders: reminderConfig(env),
    push: pushConfig(env),
    brand: {
      productName: env.BRAND_PRODUCT_NAME || 'Litigation Funding Portal',
      companyName: provider.name,
      providerRole: provider.role,
      lenderName: provider.lender.name,
      phone: env.BRAND_PHONE || '020 7946 0000',
      email: env.BRAND_EMAIL || 'support@portal.test',
      termsUrl: env.BRAND_TERMS_URL || 'https://example.com/terms',
      privacyUrl: env.BRAND_PRIVACY_URL || 'https://example.com/privacy',
    },
    metricsToken: metricsToken(env.METRICS_TOKEN),
    sessionCache: onOff(env.SESSION_CACHE, 'SESSION_CACHE'),
  };
}

/**
 * SMTP_INSECURE_PLAIN, checked with SMTP_URL at start: an address that would send credentials to
 * another host without TLS stops the server with the reason (docs/decisions.md 541).
 */
function smtpInsecurePlain(env: Env, production: boolean): boolean {
  const value = (env.SMTP_INSECURE_PLAIN || 'false').toLowerCase();
  if (value !== 'true' && value !== 'false')
    throw new Error(`SMTP_INSECURE_PLAIN must be "true" or "false", got "${env.SMTP_INSECURE_PLAIN}"`);
  const insecurePlain = value === 'true';
  if (insecurePlain && production)
    throw new Error('SMTP_INSECURE_PLAIN=true is for tests only: it is refused with NODE_ENV=production');
  if (env.SMTP_URL) smtpTransportOptions(env.SMTP_URL, insecurePlain);
  return insecurePlain;
}

/** The lender's settings, read only when the provider is a credit broker. */
const LENDER_SETTINGS = ['LENDER_NAME', 'LENDER_ADDRESS', 'LENDER_COMPANY_NUMBER', 'LENDER_REGULATOR_REFERENCE'] as const;

/**
 * Demo defaults: a real deployment sets every one (they are printed on the credit agreement). The
 * role is one setting (docs/decisions.md: 495): a lender is its own lender; a broker names its
 * lender in the LENDER_* settings, all four required, and a lender may set none of them, so the
 * footer, the emails and the documents can never name two different lenders.
 */
function providerDetails(env: Env): ProviderDetails {
  const role = (env.PROVIDER_ROLE || 'lender').toLowerCase();
  if (!(providerRoles as readonly string[]).includes(role))
    throw new Error(`PROVIDER_ROLE must be "lender" or "broker", got "${env.PROVIDER_ROLE}"`);
  const own = {
    name: env.PROVIDER_NAME || env.BRAND_COMPANY_NAME || 'Provider Finance Ltd',
    address: env.PROVIDER_ADDRESS || '1 Example Street, London EC1A 1BB',
    companyNumber: env.PROVIDER_COMPANY_NUMBER || '01234567',
    regulatorReference: env.PROVIDER_REGULATOR_REFERENCE || 'FRN 123456',
  };
  const given = LENDER_SETTINGS.filter((name) => env[name]);
  if (role === 'lender' && given.length > 0)
    throw new Error(`${given.join(', ')}: only for PROVIDER_ROLE=broker (a provider whose role is lender is the lender itself)`);
  const missing = LENDER_SETTINGS.filter((name) => !env[name]);
  if (role === 'broker' && missing.length > 0) throw new Error(`PROVIDER_ROLE=broker needs the lender's ${missing.join(', ')}`);
  return {
    ...own,
    phone: env.PROVIDER_PHONE || env.BRAND_PHONE || '020 7946 0000',
    email: env.PROVIDER_EMAIL || env.BRAND_EMAIL || 'support@portal.test',
    role: role as ProviderRole,
    lender:
      role === 'lender'
        ? own
        : {
            name: env.LENDER_NAME!,
            address: env.LENDER_ADDRESS!,
            companyNumber: env.LENDER_COMPANY_NUMBER!,
            regulatorReference: env.LENDER_REGULATOR_REFERENCE!,
          },
  };
}

function esignConfig(env: Env): EsignConfig {
  const name = (env.ESIGN_PROVIDER || 'builtin').toLowerCase();
  if (name !== 'builtin' && name !== 'docusign')
    throw new Error(`ESIGN_PROVIDER must be "builtin" or "docusign", got "${env.ESIGN_PROVIDER}"`);
  const fetchTimeoutMs = integer(env.ESIGN_TSA_TIMEOUT_MS, 10_000, 'ESIGN_TSA_TIMEOUT_MS');
  if (fetchTimeoutMs === 0) throw new Error('ESIGN_TSA_TIMEOUT_MS must be more than 0');
  return {
    provider: name,
    docusign: docusignConfig(env, name === 'docusign'),
    p12Path: env.ESIGN_P12_PATH ? path.resolve(env.ESIGN_P12_PATH) : undefined,
    p12Password: env.ESIGN_P12_PASSWORD ?? '',
    tsa: tsaConfig(env),
    fetchTimeoutMs,
  };
}

function tsaConfig(env: Env): EsignConfig['tsa'] {
  const username = env.ESIGN_TSA_USERNAME || undefined;
  const password = env.ESIGN_TSA_PASSWORD || undefined;
  if (!env.ESIGN_TSA_URL) {
    if (username || password) throw new Error('ESIGN_TSA_USERNAME and ESIGN_TSA_PASSWORD need ESIGN_TSA_URL');
    return undefined;
  }
  let url: URL;
  try {
    url = new URL(env.ESIGN_TSA_URL);
  } catch {
    throw new Error(`ESIGN_TSA_URL must be an http or https address, got "${env.ESIGN_TSA_URL}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new Error(`ESIGN_TSA_URL must be an http or https address, got "${env.ESIGN_TSA_URL}"`);
  // Credentials go in their own settings: an address carrying them would be logged with them.
  if (url.username || url.password)
    throw new Error('ESIGN_TSA_URL must not carry credentials: set ESIGN_TSA_USERNAME and ESIGN_TSA_PASSWORD');
  if (password && !username) throw new Error('ESIGN_TSA_PASSWORD needs ESIGN_TSA_USERNAME');
  return { url: url.href, username, password };
}

const DOCUSIGN_SETTINGS = [
  'DOCUSIGN_INTEGRATION_KEY',
  'DOCUSIGN_USER_ID',
  'DOCUSIGN_ACCOUNT_ID',
  'DOCUSIGN_BASE_PATH',
  'DOCUSIGN_PRIVATE_KEY',
  'DOCUSIGN_CONNECT_HMAC_KEY',
] as const;
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The DOCUSIGN_* settings (docs/decisions.md 521): all required with ESIGN_PROVIDER=docusign, and
 * refused without it (a half-configured provider would be used by nobody, silently). Every check
 * that can be made without the network is made here, so a typo stops the server at start with the
 * setting's name; the private key is never quoted.
 */
function docusignConfig(env: Env, chosen: boolean): DocusignConfig | undefined {
  const given = [...DOCUSIGN_SETTINGS, 'DOCUSIGN_OAUTH_BASE', 'DOCUSIGN_TIMEOUT_MS'].filter((setting) => env[setting]);
  if (!chosen) {
    if (given.length > 0) throw new Error(`${given.join(', ')}: only for ESIGN_PROVIDER=docusign`);
    return undefined;
  }
  const missing = DOCUSIGN_SETTINGS.filter((setting) => !env[setting]?.trim());
  if (missing.length > 0) throw new Error(`ESIGN_PROVIDER=docusign needs ${missing.join(', ')}`);
  const integrationKey = env.DOCUSIGN_INTEGRATION_KEY!.trim();
  const userId = env.DOCUSIGN_USER_ID!.trim();
  const accountId = env.DOCUSIGN_ACCOUNT_ID!.trim();
  if (!GUID.test(integrationKey))
    throw new Error(`DOCUSIGN_INTEGRATION_KEY must be the integration key (a GUID), got "${integrationKey}"`);
  if (!GUID.test(userId)) throw new Error(`DOCUSIGN_USER_ID must be the DocuSign user id (a GUID), got "${userId}"`);
  if (!GUID.test(accountId) && !/^\d+$/.test(accountId))
    throw new Error(`DOCUSIGN_ACCOUNT_ID must be the account id (a GUID) or the account number, got "${accountId}"`);
  const basePath = httpAddress(env.DOCUSIGN_BASE_PATH!.trim(), 'DOCUSIGN_BASE_PATH');
  if (!/\/restapi$/.test(basePath))
    throw new Error(
      `DOCUSIGN_BASE_PATH must be the REST base ending in /restapi (e.g. https://demo.docusign.net/restapi), got "${basePath}"`,
    );
  // The authentication host alone is what DocuSign's own settings show: https:// is implied.
  const oauthSetting = (env.DOCUSIGN_OAUTH_BASE || 'account-d.docusign.com').trim();
  const oauthBase = httpAddress(
    /^[a-z]+:\/\//i.test(oauthSetting) ? oauthSetting : `https://${oauthSetting}`,
    'DOCUSIGN_OAUTH_BASE',
  );
  if (new URL(oauthBase).pathname !== '/')
    throw new Error(
      `DOCUSIGN_OAUTH_BASE must be the authentication host only (e.g. account-d.docusign.com), got "${oauthSetting}"`,
    );
  const demoRest = new URL(basePath).hostname === 'demo.docusign.net';
  const oauthHost = new URL(oauthBase).hostname;
  if (
    (demoRest && oauthHost === 'account.docusign.com') ||
    (!demoRest && oauthHost === 'account-d.docusign.com' && basePath.includes('.docusign.net'))
  )
    throw new Error(
      'DOCUSIGN_BASE_PATH and DOCUSIGN_OAUTH_BASE must both be the demo (developer) environment or both production',
    );
  const connectHmacKeys = env.DOCUSIGN_CONNECT_HMAC_KEY!.split(',').map((key) => key.trim());
  if (connectHmacKeys.some((key) => key.length < 16))
    throw new Error('DOCUSIGN_CONNECT_HMAC_KEY must be the Connect HMAC key DocuSign made (comma-separated when there are two)');
  const timeoutMs = integer(env.DOCUSIGN_TIMEOUT_MS, 15_000, 'DOCUSIGN_TIMEOUT_MS');
  if (timeoutMs === 0) throw new Error('DOCUSIGN_TIMEOUT_MS must be more than 0');
  return {
    integrationKey,
    userId,
    accountId,
    basePath,
    oauthBase: oauthBase.replace(/\/+$/, ''),
    privateKey: rsaPrivateKey(env.DOCUSIGN_PRIVATE_KEY!),
    connectHmacKeys,
    timeoutMs,
  };
}

/** An http(s) address without credentials or a trailing slash. */
function httpAddress(value: string, name: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`${name} must be an https address, got "${value}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`${name} must be an https address, got "${value}"`);
  if (url.username || url.password || url.search || url.hash)
    throw new Error(`${name} must be a plain address, without credentials or a query, got "${value}"`);
  return url.href.replace(/\/+$/, '');
}

/**
 * DOCUSIGN_PRIVATE_KEY: the PEM itself (with real or \\n-escaped line breaks, as environment files
 * carry them) or the path of a file holding it; it must be an RSA private key (RS256).
 */
function rsaPrivateKey(setting: string): string {
  const inline = setting.includes('-----BEGIN');
  let pem = inline ? setting.replace(/\\n/g, '\n').trim() : '';
  if (!inline) {
    try {
      pem = fs.readFileSync(path.resolve(setting.trim()), 'utf8');
    } catch {
      throw new Error(
        `DOCUSIGN_PRIVATE_KEY must be an RSA private key in PEM or the path of a file holding one; "${setting.trim()}" cannot be read`,
      );
    }
  }
  let key;
  try {
    key = createPrivateKey(pem);
  } catch {
    throw new Error(
      'DOCUSIGN_PRIVATE_KEY is not a private key in PEM (-----BEGIN RSA PRIVATE KEY----- or -----BEGIN PRIVATE KEY-----)',
    );
  }
  if (key.asymmetricKeyType !== 'rsa')
    throw new Error(`DOCUSIGN_PRIVATE_KEY must be an RSA key (RS256), not ${key.asymmetricKeyType}`);
  return pem;
}

function filesStorage(env: Env): Config['filesStorage'] {
  const name = (env.FILES_STORAGE || (env.DATABASE_URL ? 'postgres' : 'local')).toLowerCase();
  if (name !== 'postgres' && name !== 'local')
    throw new Error(`FILES_STORAGE must be "postgres" or "local", got "${env.FILES_STORAGE}"`);
  // The embedded database is one process's by design: files in it would gain nothing (decision 350).
  if (name === 'postgres' && !env.DATABASE_URL)
    throw new Error('FILES_STORAGE=postgres needs DATABASE_URL (the embedded database keeps files in FILES_DIR)');
  return name;
}

function postcodeConfig(env: Env): PostcodeConfig {
  const name = (env.POSTCODE_PROVIDER || 'builtin').toLowerCase().replace(/[^a-z]/g, '');
  if (name !== 'builtin' && name !== 'idealpostcodes')
    throw new Error(`POSTCODE_PROVIDER must be "builtin" or "ideal-postcodes", got "${env.POSTCODE_PROVIDER}"`);
  const provider = name === 'builtin' ? 'builtin' : 'idealPostcodes';
  const apiKey = env.IDEAL_POSTCODES_API_KEY || undefined;
  if (provider === 'idealPostcodes' && !apiKey)
    throw new Error('POSTCODE_PROVIDER=ideal-postcodes needs IDEAL_POSTCODES_API_KEY');
  return {
    provider,
    idealPostcodesApiKey: apiKey,
    idealPostcodesUrl: (env.IDEAL_POSTCODES_URL || 'https://api.ideal-postcodes.co.uk').replace(/\/+$/, ''),
    timeoutMs: integer(env.POSTCODE_TIMEOUT_MS, 5000, 'POSTCODE_TIMEOUT_MS'),
  };
}

export function timeouts(env: Env): Timeouts {
  const read = (name: string, fallback: number) => integer(env[name], fallback, name);
  const t: Timeouts = {
    requestTimeoutMs: read('REQUEST_TIMEOUT_MS', 300_000),
    headersTimeoutMs: read('HEADERS_TIMEOUT_MS', 20_000),
    connectionTimeoutMs: read('CONNECTION_TIMEOUT_MS', 60_000),
    keepAliveTimeoutMs: read('KEEP_ALIVE_TIMEOUT_MS', 72_000),
    pdfTimeoutMs: read('PDF_TIMEOUT_MS', 30_000),
    idempotencyLeaseMs: read('IDEMPOTENCY_LEASE_MS', 60_000),
    // Below the 30 s an orchestrator gives by default (Kubernetes, ECS) before it kills: decision 565.
    shutdownTimeoutMs: read('SHUTDOWN_TIMEOUT_MS', 25_000),
    // Only the drain may be 0 (no wait before the listener closes: the default).
    shutdownDrainMs: read('SHUTDOWN_DRAIN_MS', 0),
  };
  for (const [name, value] of Object.entries(t))
    if (value === 0 && name !== 'shutdownDrainMs') throw new Error(`${name} must be more than 0`);
  if (t.headersTimeoutMs > t.requestTimeoutMs) throw new Error('HEADERS_TIMEOUT_MS must not be more than REQUEST_TIMEOUT_MS');
  return t;
}

function reminderConfig(env: Env): ReminderConfig {
  return {
    afterHours: integer(env.REMINDER_AFTER_HOURS, 72, 'REMINDER_AFTER_HOURS'),
    everyHours: integer(env.REMINDER_EVERY_HOURS, 48, 'REMINDER_EVERY_HOURS'),
    limit: integer(env.REMINDER_LIMIT, 3, 'REMINDER_LIMIT'),
  };
}

/** Whether reminders are sent at all: any setting 0 turns them off. */
export function remindersOn(reminders: ReminderConfig): boolean {
  return reminders.afterHours > 0 && reminders.everyHours > 0 && reminders.limit > 0;
}

/** A token a scraper sends: long enough not to be guessed (docs/decisions.md 562). */
function metricsToken(value: string | undefined): string | undefined {
  if (!value) return undefined;
  if (!/^[A-Za-z0-9._~+/=-]{32,256}$/.test(value))
    throw new Error('METRICS_TOKEN must be 32 to 256 characters of letters, digits and ._~+/=- (e.g. openssl rand -hex 32)');
  return value;
}

function trustProxy(value: string | undefined): Config['trustProxy'] {
  if (!value || value === '0' || value === 'false') return false;
  if (/^\d+$/.test(value)) return Number(value);
  if (value === 'true') throw new Error('TRUST_PROXY must be a number of proxy hops or a list of proxy addresses, not "true"');
  return value;
}

function integer(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a whole number, got "${value}"`);
  return n;
}
