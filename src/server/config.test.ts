import { generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { KNOWN_PUSH_SERVICE_HOSTS, loadConfig, remindersOn } from './config';
import { smtpTransportOptions } from './mail/smtp-options';

const esign = (env: Record<string, string>) => loadConfig({ NODE_ENV: 'test', ...env }).esign;

describe('the time-stamping authority settings (ESIGN_TSA_*)', () => {
  it('are off by default, with a ten-second time limit for what signing fetches', () => {
    expect(esign({})).toMatchObject({ tsa: undefined, fetchTimeoutMs: 10_000 });
  });

  it('take an http(s) address, optional Basic credentials and a time limit', () => {
    expect(
      esign({
        ESIGN_TSA_URL: 'https://tsa.example.test/rfc3161',
        ESIGN_TSA_USERNAME: 'portal',
        ESIGN_TSA_PASSWORD: 'secret',
        ESIGN_TSA_TIMEOUT_MS: '2500',
      }),
    ).toMatchObject({
      tsa: { url: 'https://tsa.example.test/rfc3161', username: 'portal', password: 'secret' },
      fetchTimeoutMs: 2500,
    });
    expect(esign({ ESIGN_TSA_URL: 'http://127.0.0.1:3180' }).tsa).toEqual({
      url: 'http://127.0.0.1:3180/',
      username: undefined,
      password: undefined,
    });
  });

  it('refuse what cannot work, saying why', () => {
    expect(() => esign({ ESIGN_TSA_URL: 'tsa.example.test' })).toThrow(/ESIGN_TSA_URL must be an http or https address/);
    expect(() => esign({ ESIGN_TSA_URL: 'ftp://tsa.example.test' })).toThrow(/http or https/);
    expect(() => esign({ ESIGN_TSA_URL: 'https://user:pw@tsa.example.test' })).toThrow(/must not carry credentials/);
    expect(() => esign({ ESIGN_TSA_USERNAME: 'portal' })).toThrow(/need ESIGN_TSA_URL/);
    expect(() => esign({ ESIGN_TSA_URL: 'https://tsa.example.test', ESIGN_TSA_PASSWORD: 'x' })).toThrow(
      /ESIGN_TSA_PASSWORD needs ESIGN_TSA_USERNAME/,
    );
    expect(() => esign({ ESIGN_TSA_TIMEOUT_MS: '0' })).toThrow(/more than 0/);
    expect(() => esign({ ESIGN_TSA_TIMEOUT_MS: 'soon' })).toThrow(/whole number/);
  });
});

describe('the DocuSign settings (ESIGN_PROVIDER=docusign, DOCUSIGN_*)', () => {
  const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs1', format: 'pem' }) as string;
  const docusign = {
    ESIGN_PROVIDER: 'docusign',
    DOCUSIGN_INTEGRATION_KEY: '7c2b8d7e-1f2e-4a5b-9c8d-0e1f2a3b4c5d',
    DOCUSIGN_USER_ID: 'e0a1b2c3-d4e5-4f60-8172-93a4b5c6d7e8',
    DOCUSIGN_ACCOUNT_ID: 'a1b2c3d4-e5f6-4789-8abc-def012345678',
    DOCUSIGN_BASE_PATH: 'https://demo.docusign.net/restapi/',
    DOCUSIGN_PRIVATE_KEY: rsa,
    DOCUSIGN_CONNECT_HMAC_KEY: 'k3Qn1yF0aB9xT2mL5pR8sV4wZ7cE6hJ0uG1dK2nM3oP=',
  };

  it('are off by default, and refused without ESIGN_PROVIDER=docusign', () => {
    expect(esign({})).toMatchObject({ provider: 'builtin', docusign: undefined });
    expect(() => esign({ DOCUSIGN_ACCOUNT_ID: docusign.DOCUSIGN_ACCOUNT_ID })).toThrow(
      'DOCUSIGN_ACCOUNT_ID: only for ESIGN_PROVIDER=docusign',
    );
    expect(() => esign({ ESIGN_PROVIDER: 'adobe' })).toThrow('ESIGN_PROVIDER must be "builtin" or "docusign", got "adobe"');
  });

  it('take the JWT grant, the REST base, the key as PEM or a file, the HMAC keys and a time limit', () => {
    expect(esign(docusign)).toMatchObject({
      provider: 'docusign',
      docusign: {
        integrationKey: '7c2b8d7e-1f2e-4a5b-9c8d-0e1f2a3b4c5d',
        userId: docusign.DOCUSIGN_USER_ID,
        accountId: docusign.DOCUSIGN_ACCOUNT_ID,
        basePath: 'https://demo.docusign.net/restapi',
        oauthBase: 'https://account-d.docusign.com',
        privateKey: rsa.trim(),
        connectHmacKeys: [docusign.DOCUSIGN_CONNECT_HMAC_KEY],
        timeoutMs: 15_000,
      },
    });
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'docusign-key-')), 'private.pem');
    fs.writeFileSync(file, rsa);
    const escaped = rsa.trim().replace(/\n/g, '\\n');
    expect(esign({ ...docusign, DOCUSIGN_PRIVATE_KEY: file }).docusign?.privateKey).toBe(rsa);
    expect(esign({ ...docusign, DOCUSIGN_PRIVATE_KEY: escaped }).docusign?.privateKey).toBe(rsa.trim());
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
    expect(
      esign({
        ...docusign,
        DOCUSIGN_BASE_PATH: 'https://eu.docusign.net/restapi',
        DOCUSIGN_OAUTH_BASE: 'account.docusign.com',
        DOCUSIGN_CONNECT_HMAC_KEY: 'first-key-0123456789, second-key-0123456789',
        DOCUSIGN_TIMEOUT_MS: '5000',
        DOCUSIGN_ACCOUNT_ID: '12345678',
      }).docusign,
    ).toMatchObject({
      basePath: 'https://eu.docusign.net/restapi',
      oauthBase: 'https://account.docusign.com',
      connectHmacKeys: ['first-key-0123456789', 'second-key-0123456789'],
      timeoutMs: 5000,
      accountId: '12345678',
    });
    // A local stand-in (tests) is an http origin with a port.
    expect(
      esign({ ...docusign, DOCUSIGN_BASE_PATH: 'http://127.0.0.1:4555/restapi', DOCUSIGN_OAUTH_BASE: 'http://127.0.0.1:4555' })
        .docusign,
    ).toMatchObject({ basePath: 'http://127.0.0.1:4555/restapi', oauthBase: 'http://127.0.0.1:4555' });
  });

  it('refuse what cannot work, naming the setting and never quoting the key', () => {
    const { DOCUSIGN_USER_ID: _user, DOCUSIGN_CONNECT_HMAC_KEY: _hmac, ...partial } = docusign;
    expect(() => esign(partial)).toThrow('ESIGN_PROVIDER=docusign needs DOCUSIGN_USER_ID, DOCUSIGN_CONNECT_HMAC_KEY');
    expect(() => esign({ ...docusign, DOCUSIGN_INTEGRATION_KEY: 'my-app' })).toThrow(/DOCUSIGN_INTEGRATION_KEY must be .* GUID/);
    expect(() => esign({ ...docusign, DOCUSIGN_USER_ID: 'me@example.com' })).toThrow(/DOCUSIGN_USER_ID must be/);
    expect(() => esign({ ...docusign, DOCUSIGN_ACCOUNT_ID: 'acme' })).toThrow(/DOCUSIGN_ACCOUNT_ID must be/);
    expect(() => esign({ ...docusign, DOCUSIGN_BASE_PATH: 'demo.docusign.net/restapi' })).toThrow(
      /DOCUSIGN_BASE_PATH must be an https address/,
    );
    expect(() => esign({ ...docusign, DOCUSIGN_BASE_PATH: 'https://demo.docusign.net' })).toThrow(/ending in \/restapi/);
    expect(() => esign({ ...docusign, DOCUSIGN_BASE_PATH: 'https://user:pw@demo.docusign.net/restapi' })).toThrow(
      /without credentials/,
    );
    expect(() => esign({ ...docusign, DOCUSIGN_OAUTH_BASE: 'account-d.docusign.com/oauth' })).toThrow(
      /DOCUSIGN_OAUTH_BASE must be the authentication host only/,
    );
    expect(() => esign({ ...docusign, DOCUSIGN_OAUTH_BASE: 'account.docusign.com' })).toThrow(
      /both be the demo .* or both production/,
    );
    expect(() => esign({ ...docusign, DOCUSIGN_CONNECT_HMAC_KEY: 'short' })).toThrow(/DOCUSIGN_CONNECT_HMAC_KEY must be/);
    expect(() => esign({ ...docusign, DOCUSIGN_TIMEOUT_MS: '0' })).toThrow('DOCUSIGN_TIMEOUT_MS must be more than 0');
    expect(() => esign({ ...docusign, DOCUSIGN_PRIVATE_KEY: '/nonexistent/private.pem' })).toThrow(
      /DOCUSIGN_PRIVATE_KEY must be an RSA private key .* cannot be read/,
    );
    const garbled = '-----BEGIN RSA PRIVATE KEY-----\nnot a key\n-----END RSA PRIVATE KEY-----';
    expect(() => esign({ ...docusign, DOCUSIGN_PRIVATE_KEY: garbled })).toThrow(/DOCUSIGN_PRIVATE_KEY is not a private key/);
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
    expect(() => esign({ ...docusign, DOCUSIGN_PRIVATE_KEY: ec })).toThrow(
      'DOCUSIGN_PRIVATE_KEY must be an RSA key (RS256), not ec',
    );
    for (const bad of [garbled, ec]) {
      try {
        esign({ ...docusign, DOCUSIGN_PRIVATE_KEY: bad });
      } catch (error) {
        expect(String(error)).not.toContain('not a key\n');
        expect(String(error)).not.toContain(ec.split('\n')[1]);
      }
    }
  });
});

const lender = {
  LENDER_NAME: 'Lending Partner plc',
  LENDER_ADDRESS: '2 Lending Lane, Leeds LS1 1AA',
  LENDER_COMPANY_NUMBER: '07654321',
  LENDER_REGULATOR_REFERENCE: 'FRN 654321',
};

describe('the provider identity settings', () => {
  it('default to a provider that is its own lender, named the same in GET /config and the documents', () => {
    const config = loadConfig({});
    expect(config.provider).toMatchObject({ name: 'Provider Finance Ltd', role: 'lender' });
    expect(config.provider.lender).toEqual({
      name: 'Provider Finance Ltd',
      address: '1 Example Street, London EC1A 1BB',
      companyNumber: '01234567',
      regulatorReference: 'FRN 123456',
    });
    expect(config.brand).toMatchObject({
      companyName: 'Provider Finance Ltd',
      providerRole: 'lender',
      lenderName: 'Provider Finance Ltd',
    });
  });

  it('name the provider once: PROVIDER_NAME is the footer’s name too, BRAND_COMPANY_NAME its fallback', () => {
    expect(loadConfig({ PROVIDER_NAME: 'Acme Loans Ltd', BRAND_COMPANY_NAME: 'Other Ltd' }).brand.companyName).toBe(
      'Acme Loans Ltd',
    );
    const fallback = loadConfig({ BRAND_COMPANY_NAME: 'Other Ltd' });
    expect([fallback.brand.companyName, fallback.provider.name, fallback.provider.lender.name]).toEqual([
      'Other Ltd',
      'Other Ltd',
      'Other Ltd',
    ]);
  });

  it('a broker names its lender, with all four LENDER_* settings', () => {
    const config = loadConfig({ PROVIDER_ROLE: 'Broker', PROVIDER_NAME: 'Broker Ltd', ...lender });
    expect(config.provider.role).toBe('broker');
    expect(config.provider.lender).toEqual({
      name: 'Lending Partner plc',
      address: '2 Lending Lane, Leeds LS1 1AA',
      companyNumber: '07654321',
      regulatorReference: 'FRN 654321',
    });
    expect(config.brand).toMatchObject({ companyName: 'Broker Ltd', providerRole: 'broker', lenderName: 'Lending Partner plc' });
    expect(() => loadConfig({ PROVIDER_ROLE: 'broker', LENDER_NAME: 'Lending Partner plc' })).toThrow(
      "PROVIDER_ROLE=broker needs the lender's LENDER_ADDRESS, LENDER_COMPANY_NUMBER, LENDER_REGULATOR_REFERENCE",
    );
  });

  it('refuses a lender with a lender of its own, and a role it does not know', () => {
    expect(() => loadConfig({ LENDER_NAME: 'Lending Partner plc' })).toThrow(/LENDER_NAME: only for PROVIDER_ROLE=broker/);
    expect(() => loadConfig({ PROVIDER_ROLE: 'bank' })).toThrow('PROVIDER_ROLE must be "lender" or "broker", got "bank"');
  });
});

describe('the SMTP settings (SMTP_URL, SMTP_INSECURE_PLAIN)', () => {
  const smtp = (env: Record<string, string>) => {
    const config = loadConfig({ NODE_ENV: 'test', ...env });
    return smtpTransportOptions(config.smtpUrl!, config.smtpInsecurePlain);
  };

  it('require STARTTLS before credentials go to another host', () => {
    expect(smtp({ SMTP_URL: 'smtp://mailer:s%40cret@smtp.example.test:587' })).toEqual({
      host: 'smtp.example.test',
      port: 587,
      auth: { user: 'mailer', pass: 's@cret' },
      secure: false,
      requireTLS: true,
    });
  });

  it('use implicit TLS for smtps:// and for port 465, whichever scheme names it', () => {
    expect(smtp({ SMTP_URL: 'smtps://mailer:secret@smtp.example.test' })).toMatchObject({ secure: true });
    expect(smtp({ SMTP_URL: 'smtp://mailer:secret@smtp.example.test:465' })).toMatchObject({ port: 465, secure: true });
    expect(smtp({ SMTP_URL: 'smtps://mailer:secret@smtp.example.test' }).requireTLS).toBeUndefined();
  });

  it('leave this machine and servers without credentials as they were', () => {
    for (const host of ['127.0.0.1', 'localhost', '[::1]']) {
      const options = smtp({ SMTP_URL: `smtp://mailer:secret@${host}:2525?ignoreTLS=true` });
      expect(options).toMatchObject({ secure: false, ignoreTLS: true });
      expect(options.requireTLS).toBeUndefined();
    }
    // Nodemailer still upgrades with STARTTLS when the server offers it.
    expect(smtp({ SMTP_URL: 'smtp://relay.internal:25' })).toEqual({ host: 'relay.internal', port: 25, secure: false });
  });

  it('refuse credentials to another host without TLS, saying why and what to do', () => {
    for (const option of ['ignoreTLS=true', 'requireTLS=false', 'tls.rejectUnauthorized=false'])
      expect(() => loadConfig({ NODE_ENV: 'test', SMTP_URL: `smtp://mailer:secret@smtp.example.test:587?${option}` })).toThrow(
        /SMTP_URL sends its user name and password to smtp\.example\.test without TLS .*smtps:\/\/ \(port 465\).*SMTP_INSECURE_PLAIN=true allows a plain connection, for tests only/,
      );
    expect(() => loadConfig({ NODE_ENV: 'test', SMTP_URL: 'http://smtp.example.test' })).toThrow(/smtp:\/\/ or smtps:\/\//);
    expect(() => loadConfig({ NODE_ENV: 'test', SMTP_URL: 'smtp.example.test:587' })).toThrow(/smtp:\/\/ or smtps:\/\//);
  });

  it('allow a plain connection only with SMTP_INSECURE_PLAIN=true, and never in production', () => {
    const env = { SMTP_URL: 'smtp://mailer:secret@smtp.example.test:587?ignoreTLS=true', SMTP_INSECURE_PLAIN: 'true' };
    expect(smtp(env)).toMatchObject({ ignoreTLS: true, secure: false });
    expect(smtp(env).requireTLS).toBeUndefined();
    expect(smtp({ ...env, SMTP_URL: 'smtp://mailer:secret@smtp.example.test:587' }).requireTLS).toBeUndefined();
    expect(() => loadConfig({ ...env, NODE_ENV: 'production' })).toThrow(/SMTP_INSECURE_PLAIN=true is for tests only/);
    expect(() => loadConfig({ NODE_ENV: 'test', SMTP_INSECURE_PLAIN: 'yes' })).toThrow(
      /SMTP_INSECURE_PLAIN must be "true" or "false"/,
    );
    expect(loadConfig({ NODE_ENV: 'test' }).smtpInsecurePlain).toBe(false);
  });
});

describe('the operations settings (METRICS_TOKEN, SHUTDOWN_*)', () => {
  const config = (env: Record<string, string>) => loadConfig({ NODE_ENV: 'test', ...env });

  it('serve no metrics and give a shutdown 25 s, with no drain, by default', () => {
    expect(config({}).metricsToken).toBeUndefined();
    expect(config({}).timeouts).toMatchObject({ shutdownTimeoutMs: 25_000, shutdownDrainMs: 0 });
    expect(config({ SHUTDOWN_TIMEOUT_MS: '5000', SHUTDOWN_DRAIN_MS: '6000' }).timeouts).toMatchObject({
      shutdownTimeoutMs: 5000,
      shutdownDrainMs: 6000,
    });
  });

  it('take a metrics token long enough not to be guessed, and refuse others saying why', () => {
    const token = 'a'.repeat(32);
    expect(config({ METRICS_TOKEN: token }).metricsToken).toBe(token);
    expect(() => config({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN must be 32 to 256 characters/);
    expect(() => config({ METRICS_TOKEN: `${token} with spaces` })).toThrow(/METRICS_TOKEN/);
    expect(() => config({ SHUTDOWN_TIMEOUT_MS: '0' })).toThrow(/shutdownTimeoutMs must be more than 0/);
  });
});

describe('the reminder settings (REMINDER_*)', () => {
  it('remind after three days, every two days, three times by default', () => {
    const { reminders } = loadConfig({});
    expect(reminders).toEqual({ afterHours: 72, everyHours: 48, limit: 3 });
    expect(remindersOn(reminders)).toBe(true);
  });

  it('take hours and a count, and any of them 0 turns reminders off', () => {
    const reminders = loadConfig({ REMINDER_AFTER_HOURS: '24', REMINDER_EVERY_HOURS: '12', REMINDER_LIMIT: '5' }).reminders;
    expect(reminders).toEqual({ afterHours: 24, everyHours: 12, limit: 5 });
    for (const name of ['REMINDER_AFTER_HOURS', 'REMINDER_EVERY_HOURS', 'REMINDER_LIMIT'])
      expect(remindersOn(loadConfig({ [name]: '0' }).reminders)).toBe(false);
  });

  it('refuse what is not a whole number, naming the setting', () => {
    expect(() => loadConfig({ REMINDER_AFTER_HOURS: '3 days' })).toThrow(/REMINDER_AFTER_HOURS must be a whole number/);
    expect(() => loadConfig({ REMINDER_LIMIT: '-1' })).toThrow(/REMINDER_LIMIT must be a whole number/);
  });
});

describe('the web push settings (VAPID_*, PUSH_TIMEOUT_MS)', () => {
  const push = (env: Record<string, string>) => loadConfig({ NODE_ENV: 'test', ...env }).push;
  const publicKey = 'BGojLMHr0PCIWZQg19OzFWexps8JT-xheM7WnCZKy0xZR8E52Tja_jyNL5kTnKYLY_gCCHANbqz5mrzsfXdeFrk';
  const privateKey = Buffer.alloc(32, 7).toString('base64url');

  it('make a key pair at the first start by default, with the brand’s email as the subject', () => {
    expect(push({ BRAND_EMAIL: 'help@firm.test' })).toEqual({
      vapidKeys: undefined,
      subject: 'mailto:help@firm.test',
      sendTimeoutMs: 10_000,
      serviceHosts: KNOWN_PUSH_SERVICE_HOSTS,
    });
  });

  it('take both keys, a subject and a time limit', () => {
    expect(
      push({
        VAPID_PUBLIC_KEY: publicKey,
        VAPID_PRIVATE_KEY: privateKey,
        VAPID_SUBJECT: 'https://portal.example',
        PUSH_TIMEOUT_MS: '2500',
      }),
    ).toEqual({
      vapidKeys: { publicKey, privateKey },
      subject: 'https://portal.example',
      sendTimeoutMs: 2500,
      serviceHosts: KNOWN_PUSH_SERVICE_HOSTS,
    });
  });

  it('take the push services a device may name, the four browsers’ by default', () => {
    expect(push({}).serviceHosts).toEqual([
      'fcm.googleapis.com',
      'updates.push.services.mozilla.com',
      'push.apple.com',
      'notify.windows.com',
    ]);
    expect(push({ PUSH_SERVICE_HOSTS: ' Push.Example.com, fcm.googleapis.com ' }).serviceHosts).toEqual([
      'push.example.com',
      'fcm.googleapis.com',
    ]);
    for (const wrong of ['https://push.example.com', 'push.example.com/x', 'localhost', 'a,,b.example', '10.0.0.1'])
      expect(() => push({ PUSH_SERVICE_HOSTS: wrong }), wrong).toThrow(/PUSH_SERVICE_HOSTS/);
  });

  it('refuse one key without the other, keys of the wrong length, and a subject push services refuse', () => {
    expect(() => push({ VAPID_PUBLIC_KEY: publicKey })).toThrow(/go together/);
    expect(() => push({ VAPID_PRIVATE_KEY: privateKey })).toThrow(/go together/);
    expect(() => push({ VAPID_PUBLIC_KEY: publicKey.slice(0, 40), VAPID_PRIVATE_KEY: privateKey })).toThrow(/VAPID_PUBLIC_KEY/);
    expect(() => push({ VAPID_PUBLIC_KEY: publicKey, VAPID_PRIVATE_KEY: 'short' })).toThrow(/VAPID_PRIVATE_KEY/);
    expect(() => push({ VAPID_SUBJECT: 'http://portal.example' })).toThrow(/VAPID_SUBJECT/);
    expect(() => push({ PUSH_TIMEOUT_MS: 'soon' })).toThrow(/PUSH_TIMEOUT_MS/);
  });
});
