/**
 * The soak's mixed traffic, as every role makes it: staff read their queues and approve and pay
 * drawdowns; each firm's lawyer reads the loan, saves a step of the draft application, uploads
 * documents and requests drawdowns (two at a time, against the same few loans' credit); each client approves
 * with the five declarations; one client per firm signs the contract. Every write carries an
 * Idempotency-Key, and the ledger keeps only what the portal acknowledged, for the checks after.
 */
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { clientDeclarations, drawdownRequest } from '../../tests/api/loans-fixtures';
import { smallPdf } from '../../tests/api/files-helpers';
import { validSteps } from '../../tests/fixtures/journeys';
import type { Answer, Call } from './client';
import { delay } from './cluster';
import { FACTORY_PASSWORD, type Firm, type World } from './world';

/** What the portal acknowledged (a 2xx answer), and the final refusals the run met. */
export interface Ledger {
  /** Drawdowns by id: the loan, the amount and the last status acknowledged. */
  drawdowns: Map<number, { loanId: number; amountPence: number; status: string }>;
  /** Acknowledged step saves by application. */
  stepSaves: Map<number, number>;
  /** Acknowledged uploads by application: their file ids. */
  uploads: Map<number, number[]>;
  /** Applications signed, with the loan each signature created. */
  signed: Map<number, number>;
  /** Final answers other than 2xx, by operation and status (e.g. a request past the credit). */
  refusals: Map<string, number>;
}

export function newLedger(): Ledger {
  return { drawdowns: new Map(), stepSaves: new Map(), uploads: new Map(), signed: new Map(), refusals: new Map() };
}

type Send = (call: Call) => Promise<Answer>;

interface Tokens {
  staff: string;
  firms: { lawyer: string; client: string; signer: string }[];
}

/** How much each actor does: a run of `seconds` in all. */
export interface TrafficPlan {
  until: number;
  seconds: number;
}

export async function signInEveryone(send: Send, world: World): Promise<Tokens> {
  const signIn = async (email: string) => {
    const answer = await send({ method: 'POST', path: '/api/auth', json: { login: email, password: FACTORY_PASSWORD } });
    if (answer.status !== 200) throw new Error(`sign-in of ${email} failed: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body.token as string;
  };
  const firms = [];
  for (const firm of world.firms)
    firms.push({
      lawyer: await signIn(firm.lawyerEmail),
      client: await signIn(firm.clientEmail),
      signer: await signIn(firm.signingClientEmail),
    });
  return { staff: await signIn(world.staffEmail), firms };
}

/** Every actor, until the plan's end; each finishes the step it is in (a drawdown's whole journey). */
export async function driveTraffic(
  send: Send,
  world: World,
  tokens: Tokens,
  plan: TrafficPlan,
  ledger: Ledger,
  database: pg.Pool,
) {
  const pdf = new Uint8Array(await smallPdf('Form E'));
  const running = () => Date.now() < plan.until;
  const acknowledged = (operation: string, answer: Answer) => {
    if (answer.status >= 200 && answer.status < 300) return true;
    const key = `${operation} ${answer.status}${answer.body?.error ? ` ${answer.body.error}` : ''}`;
    ledger.refusals.set(key, (ledger.refusals.get(key) ?? 0) + 1);
    return false;
  };

  const staffReads = async () => {
    while (running()) {
      for (const path of ['/api/applications', '/api/loans', '/api/drawdowns?status=requested', '/api/clients'])
        acknowledged('staff list', await send({ method: 'GET', path, token: tokens.staff }));
    }
  };

  const firmActors = world.firms.flatMap((firm, i) => {
    const own = tokens.firms[i]!;
    const lawyerReads = async () => {
      while (running()) {
        const loan = pick(firm.loans);
        acknowledged('lawyer reads', await send({ method: 'GET', path: `/api/loans/${loan.id}`, token: own.lawyer }));
        acknowledged('lawyer reads', await send({ method: 'GET', path: `/api/drawdowns?loanId=${loan.id}`, token: own.lawyer }));
        await delay(100);
      }
    };

    // One writer per step, so every acknowledged save is one version more.
    const stepSaves = async () => {
      let version = 0;
      for (let n = 1; running(); n++) {
        const answer = await send({
          method: 'POST',
          path: '/api/applications/update/case',
          token: own.lawyer,
          key: randomUUID(),
          json: {
            applicationId: firm.draftApplicationId,
            baseVersion: version,
            journeyData: { case: { ...validSteps.case, timeEstimation: `${n} months` } },
          },
        });
        if (acknowledged('step save', answer)) {
          version = answer.body.version;
          ledger.stepSaves.set(firm.draftApplicationId, (ledger.stepSaves.get(firm.draftApplicationId) ?? 0) + 1);
        } else if (answer.status === 409 && answer.body?.current) version = answer.body.current.version;
        await delay(150);
      }
    };

    // Ten Form E documents at most per application: spread over the run.
    const uploads = async () => {
      const ids: number[] = [];
      ledger.uploads.set(firm.draftApplicationId, ids);
      for (let n = 1; running() && n <= 10; n++) {
        const answer = await send({
          method: 'POST',
          path: '/api/applications/file/upload',
          token: own.lawyer,
          key: randomUUID(),
          form: () => {
            const form = new FormData();
            form.set('applicationId', String(firm.draftApplicationId));
            form.set('type', 'formE');
            form.set('file', new Blob([pdf], { type: 'application/pdf' }), `form-e-${n}.pdf`);
            return form;
          },
        });
        if (acknowledged('upload', answer)) ids.push(answer.body.id);
        await delay((plan.seconds * 1000) / 12);
      }
    };

    const drawdownJourneys = async (worker: number) => {
      while (running()) {
        const loan = pick(firm.loans);
        const amountPounds = 100 + Math.floor(Math.random() * 800);
        const requested = await send({
          method: 'POST',
          path: '/api/drawdowns',
          token: own.lawyer,
          key: randomUUID(),
          json: drawdownRequest(loan.applicationId, {
            amount: amountPounds,
            invoiceNumber: `SOAK-${worker}-${randomUUID().slice(0, 8)}`,
          }),
        });
        if (!acknowledged('drawdown request', requested)) {
          // The credit is used up or the loan's requests for the day are (429): the lawyer tries again later.
          await delay(2_000);
          continue;
        }
        const id = requested.body.id as number;
        const entry = { loanId: loan.id, amountPence: amountPounds * 100, status: 'requested' };
        ledger.drawdowns.set(id, entry);
        for (const [state, token] of [
          ['providerApproved', tokens.staff],
          ['customerApproved', own.client],
          ['paid', tokens.staff],
        ] as const) {
          const moved = await send({
            method: 'POST',
            path: `/api/drawdowns/${id}/state`,
            token,
            key: randomUUID(),
            json: state === 'customerApproved' ? { state, clientDeclarations: clientDeclarations() } : { state },
          });
          if (!acknowledged(`drawdown ${state}`, moved)) break;
          entry.status = state;
        }
      }
    };

    // The signature comes at a moment of its own, so some fall on a restart.
    const signing = async () => {
      await delay(Math.random() * plan.seconds * 700);
      const loanId = await sign(send, firm, tokens.staff, own.signer, database, acknowledged);
      if (loanId) ledger.signed.set(firm.signingApplicationId, loanId);
    };

    return [lawyerReads(), stepSaves(), uploads(), drawdownJourneys(1), drawdownJourneys(2), signing()];
  });

  await Promise.all([staffReads(), ...firmActors]);
}

function pick<T>(items: T[]): T {
  return items[Math.floor(Math.random() * items.length)]!;
}

/**
 * The signature, as staff and the client make it: prepare the envelope, notify the client, open
 * the signing page, ask for a code (read from the outbox, as the client reads their email) and sign.
 * Answers the loan's id once signed.
 */
async function sign(
  send: Send,
  firm: Firm,
  staff: string,
  signer: string,
  database: pg.Pool,
  acknowledged: (operation: string, answer: Answer) => boolean,
): Promise<number | undefined> {
  const applicationId = firm.signingApplicationId;
  const prepared = await send({
    method: 'POST',
    path: '/api/docusign/init',
    token: staff,
    key: randomUUID(),
    json: { applicationId, state: 'esignPrepared' },
  });
  if (!acknowledged('signing: prepare', prepared)) return undefined;
  const notified = await send({
    method: 'POST',
    path: '/api/docusign/notify',
    token: staff,
    key: randomUUID(),
    json: { applicationId },
  });
  if (!acknowledged('signing: notify', notified)) return undefined;
  const opened = await send({ method: 'POST', path: '/api/docusign/sign', token: signer, json: { applicationId } });
  if (!acknowledged('signing: open', opened)) return undefined;
  const token = String(opened.body.envelopUrl).slice('/esign/'.length);
  const coded = await send({ method: 'POST', path: `/api/esign/${token}/code`, token: signer, json: {} });
  if (!acknowledged('signing: code', coded)) return undefined;
  const { rows } = await database.query<{ text_body: string }>(
    `select text_body from emails where application_id = $1 and to_address = $2 and subject = 'Your code to sign your documents' order by id desc limit 1`,
    [applicationId, firm.signingClientEmail],
  );
  const code = /one-time code is (\d{6})/.exec(rows[0]?.text_body ?? '')?.[1];
  if (!code) throw new Error(`no signing code was written for application ${applicationId}`);
  const signed = await send({ method: 'POST', path: `/api/esign/${token}/sign`, token: signer, json: { code, agree: true } });
  return acknowledged('signing: sign', signed) ? (signed.body.loanId as number) : undefined;
}
