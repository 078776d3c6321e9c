/**
 * Trust services on 127.0.0.1 for the signature tests, made with OpenSSL: a root CA, a
 * time-stamping authority (RFC 3161, `openssl ts -reply` behind an HTTP handler) whose certificate
 * names an OCSP responder (`openssl ocsp`), and a provider's signing certificate (PKCS#12) whose
 * certificate names a CRL and, for its issuer, a caIssuers address (the file itself leaves the
 * root out). The authority can be told to answer, to say nothing, or to ask for credentials.
 */
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface TrustServices {
  dir: string;
  /** The time-stamping authority's address. */
  tsaUrl: string;
  /** PEM files: the root (trust anchor of both chains), the authority's and the signer's certificates. */
  rootPem: string;
  tsaPem: string;
  signerPem: string;
  /** The provider's signing certificate and key (PKCS#12, with this passphrase). */
  signerP12: string;
  signerP12Password: string;
  /** 'answer' (default), 'silent' (takes the request, never answers). */
  mode: 'answer' | 'silent';
  /** Basic credentials the authority asks for, when set. */
  credentials: { username: string; password: string } | undefined;
  /** Requests each address received, by path. */
  requests: Record<string, number>;
  /**
   * Each request the authority refused: its bytes (hex) and OpenSSL's own reading of them, so a
   * test that meets a refusal can say what was asked.
   */
  refusals: string[];
  close(): Promise<void>;
}

/** The length of the DER header at `at` (tag and length bytes). */
function headerLength(der: Buffer, at: number): number {
  const first = der[at + 1] ?? 0;
  return first < 0x80 ? 2 : 2 + (first & 0x7f);
}

/** A TimeStampResp's PKIStatus (0 granted, 2 rejection), read from its first INTEGER. */
function replyStatus(reply: Buffer): number | undefined {
  const info = headerLength(reply, 0);
  const status = info + headerLength(reply, info);
  return reply[status] === 0x02 && reply[status + 1] === 0x01 ? reply[status + 2] : undefined;
}

const DAYS = '3650';

export async function startTrustServices(): Promise<TrustServices> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trust-services-'));
  const file = (name: string) => path.join(dir, name);
  const sockets = new Set<Socket>();
  // `openssl ts -reply` keeps its serial number in a file: one reply at a time.
  let queue: Promise<unknown> = Promise.resolve();
  const serially = <T>(work: () => Promise<T>): Promise<T> => {
    const next = queue.then(work, work);
    queue = next.catch(() => undefined);
    return next;
  };

  const services: TrustServices = {
    dir,
    tsaUrl: '',
    rootPem: file('root.pem'),
    tsaPem: file('tsa.pem'),
    signerPem: file('signer.pem'),
    signerP12: file('signer.p12'),
    signerP12Password: 'signer-pass',
    mode: 'answer',
    credentials: undefined,
    requests: {},
    refusals: [],
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };

  const body = (request: http.IncomingMessage) =>
    new Promise<Buffer>((resolve, reject) => {
      const parts: Buffer[] = [];
      request.on('data', (part: Buffer) => parts.push(part));
      request.on('end', () => resolve(Buffer.concat(parts)));
      request.on('error', reject);
    });
  const answer = (response: http.ServerResponse, type: string, bytes: Buffer) =>
    response.writeHead(200, { 'content-type': type, 'content-length': bytes.length }).end(bytes);

  const server = http.createServer((request, response) => {
    const route = `${request.method} ${request.url}`;
    services.requests[route] = (services.requests[route] ?? 0) + 1;
    void (async () => {
      if (route === 'POST /tsa') {
        if (services.mode === 'silent') return; // the socket stays open, unanswered
        if (services.credentials) {
          const expected = `Basic ${Buffer.from(`${services.credentials.username}:${services.credentials.password}`).toString('base64')}`;
          if (request.headers.authorization !== expected) return void response.writeHead(401).end();
        }
        const query = await body(request);
        const reply = await serially(async () => {
          const id = `${Date.now()}-${Math.random().toString(36).slice(2)}`;
          fs.writeFileSync(file(`${id}.tsq`), query);
          await run('openssl', [
            'ts',
            '-reply',
            '-config',
            file('tsa.cnf'),
            '-queryfile',
            file(`${id}.tsq`),
            '-out',
            file(`${id}.tsr`),
          ]);
          const bytes = fs.readFileSync(file(`${id}.tsr`));
          if (replyStatus(bytes) !== 0) {
            const reading = await run('openssl', ['ts', '-query', '-in', file(`${id}.tsq`), '-text']).then(
              ({ stdout }) => stdout,
              (error: unknown) => `not readable: ${String(error)}`,
            );
            services.refusals.push(`${query.length} bytes ${query.toString('hex')}: ${reading}`);
          }
          return bytes;
        });
        return answer(response, 'application/timestamp-reply', reply);
      }
      if (route === 'POST /ocsp') {
        const id = `${Date.now()}-${Math.random().toString(36).slice(2)}`;
        fs.writeFileSync(file(`${id}.ocq`), await body(request));
        await run('openssl', [
          'ocsp',
          ...['-index', file('ocsp-index.txt'), '-CA', file('root.pem')],
          ...['-rsigner', file('root.pem'), '-rkey', file('root.key'), '-ndays', '7'],
          ...['-reqin', file(`${id}.ocq`), '-respout', file(`${id}.ocr`)],
        ]);
        return answer(response, 'application/ocsp-response', fs.readFileSync(file(`${id}.ocr`)));
      }
      if (route === 'GET /root.crl') return answer(response, 'application/pkix-crl', fs.readFileSync(file('root.crl')));
      if (route === 'GET /root.cer') return answer(response, 'application/pkix-cert', fs.readFileSync(file('root.cer')));
      response.writeHead(404).end();
    })().catch((error: unknown) => response.writeHead(500).end(String(error)));
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  services.tsaUrl = `${base}/tsa`;

  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  const write = (name: string, text: string) => fs.writeFileSync(file(name), text);
  openssl(
    ...['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'root.key', '-out', 'root.pem', '-days', DAYS],
    ...['-subj', '/CN=Portal Test Root CA/O=Portal tests', '-addext', 'basicConstraints=critical,CA:TRUE'],
    ...['-addext', 'keyUsage=critical,keyCertSign,cRLSign'],
  );
  openssl('x509', '-in', 'root.pem', '-outform', 'DER', '-out', 'root.cer');
  const issue = (name: string, subject: string, serial: string, extensions: string) => {
    write(`${name}.ext`, extensions);
    openssl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', subject);
    openssl(
      ...['x509', '-req', '-in', `${name}.csr`, '-CA', 'root.pem', '-CAkey', 'root.key', '-set_serial', serial],
      ...['-days', DAYS, '-sha256', '-extfile', `${name}.ext`, '-out', `${name}.pem`],
    );
  };
  issue(
    'tsa',
    '/CN=Portal Test Time-Stamping Authority/O=Portal tests',
    '0x1001',
    [
      'basicConstraints=CA:FALSE',
      'keyUsage=critical,digitalSignature,nonRepudiation',
      'extendedKeyUsage=critical,timeStamping',
      `authorityInfoAccess=OCSP;URI:${base}/ocsp,caIssuers;URI:${base}/root.cer`,
    ].join('\n'),
  );
  issue(
    'signer',
    '/CN=Provider Finance Ltd electronic seal/O=Provider Finance Ltd/C=GB',
    '0x2001',
    [
      'basicConstraints=CA:FALSE',
      'keyUsage=critical,digitalSignature,nonRepudiation',
      `crlDistributionPoints=URI:${base}/root.crl`,
      `authorityInfoAccess=caIssuers;URI:${base}/root.cer`,
    ].join('\n'),
  );
  openssl(
    ...['pkcs12', '-export', '-inkey', 'signer.key', '-in', 'signer.pem', '-out', 'signer.p12'],
    ...['-passout', `pass:${services.signerP12Password}`],
  );

  // The root's CRL (nothing revoked) and its OCSP responder's index (the authority's certificate, good).
  write('crl-index.txt', '');
  write('crlnumber', '01\n');
  write(
    'ca.cnf',
    `[ca]\ndefault_ca = root\n[root]\ndatabase = ${file('crl-index.txt')}\ncrlnumber = ${file('crlnumber')}\n` +
      'default_md = sha256\ndefault_crl_days = 30\n',
  );
  openssl('ca', '-config', 'ca.cnf', '-gencrl', '-keyfile', 'root.key', '-cert', 'root.pem', '-out', 'root.crl.pem');
  openssl('crl', '-in', 'root.crl.pem', '-outform', 'DER', '-out', 'root.crl');
  const tsaEnd = openssl('x509', '-in', 'tsa.pem', '-noout', '-enddate').toString().trim().split('=')[1]!;
  const expiry = new Date(tsaEnd).toISOString().replace(/[-:T]/g, '').slice(2, 14) + 'Z';
  write('ocsp-index.txt', `V\t${expiry}\t\t1001\tunknown\t/CN=Portal Test Time-Stamping Authority/O=Portal tests\n`);

  write(
    'tsa.cnf',
    [
      '[tsa]',
      'default_tsa = local',
      '[local]',
      `serial = ${file('tsa-serial')}`,
      `signer_cert = ${file('tsa.pem')}`,
      `certs = ${file('root.pem')}`,
      `signer_key = ${file('tsa.key')}`,
      'signer_digest = sha256',
      'default_policy = 1.3.6.1.4.1.99999.1',
      'digests = sha256, sha384, sha512',
      'accuracy = secs:1',
      'ordering = yes',
      'tsa_name = yes',
      'ess_cert_id_chain = no',
      'ess_cert_id_alg = sha256',
      '',
    ].join('\n'),
  );
  write('tsa-serial', '01\n');
  return services;
}
