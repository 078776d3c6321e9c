/**
 * The application PDF's layout time with the longest answers the steps accept (the case of
 * tests/api/pdf-long-answers.test.ts: every answer one 100,000-character word) and with long
 * prose (every answer 100,000 characters of ordinary sentences), laid out on this thread and
 * through the PDF worker, and an ordinary application's. It prints figures; it is not a test.
 *
 *   npx tsx scripts/bench-pdf.ts            # 5 runs of each
 *   BENCH_PDF_RUNS=9 npx tsx scripts/bench-pdf.ts
 */
import { PDFDocument } from 'pdf-lib';
import { layoutApplicationPdf, type PdfData, type PdfOptions } from '../src/server/pdf/application-layout';
import { renderInWorker } from '../src/server/pdf/render-in-worker';
import { TEXT_MAX_LENGTH } from '../src/shared/rules/limits';
import { validPersonal, validSteps } from '../tests/fixtures/journeys';

const RUNS = Number(process.env.BENCH_PDF_RUNS ?? 5);

/** Every string in the answers (nested ones too) becomes the given text. */
function planted(value: unknown, text: string): unknown {
  if (typeof value === 'string') return text;
  if (Array.isArray(value)) return value.map((v) => planted(v, text));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, planted(v, text)]));
  return value;
}

function data(text?: string): PdfData {
  const answers = { personal: validPersonal('nina@example.test'), ...validSteps };
  const journey = (text === undefined ? answers : planted(answers, text)) as PdfData['journey'];
  const now = new Date('2026-11-25T10:00:00Z');
  return {
    application: {
      id: 1234,
      lawyerId: 1,
      clientId: 1,
      status: 'customerAccepted',
      caseRef: text ?? 'CASE-1234',
      clientNames: 'nina example',
      loanAmountPence: 4_000_000,
      kycAmlCheck: false,
      credidCheck: false,
      repaymentVehicle: false,
      independentAdvice: true,
      envelopeId: null,
      envelopeUrl: null,
      startedAt: now,
      statusChangedAt: now,
      remindersSent: 0,
      lastReminderAt: null,
      createdAt: now,
      updatedAt: now,
    },
    client: { firstName: 'Nina', lastName: 'Fairweather', email: 'nina@example.test' },
    lawyer: { firstName: 'Lee', surname: 'Lawyer', firm: 'Example LLP' },
    journey,
    solicitorNames: new Map(),
    fileNames: new Map(),
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function measure(name: string, make: () => Promise<Uint8Array>): Promise<void> {
  const times: number[] = [];
  const cpu: number[] = [];
  let pdf: Uint8Array = new Uint8Array();
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    const cpuBefore = process.cpuUsage();
    pdf = await make();
    times.push(performance.now() - started);
    // The process's CPU time, its worker threads included: steadier than the wall clock on a busy machine.
    const used = process.cpuUsage(cpuBefore);
    cpu.push((used.user + used.system) / 1000);
  }
  const pages = (await PDFDocument.load(pdf)).getPageCount();
  console.log(
    `${name.padEnd(36)} median ${median(times).toFixed(0).padStart(6)} ms (min ${Math.min(...times).toFixed(0)}, max ${Math.max(...times).toFixed(0)}), ` +
      `CPU ${median(cpu).toFixed(0).padStart(6)} ms  ${pages} pages, ${(pdf.length / 1024).toFixed(0)} KB`,
  );
}

const sentence = 'The settlement principles agreed between the parties, with the figures set out above. ';
const cases = {
  // The usual one: a thread's start would cost it ten times its layout (kept threads: decision 742).
  'ordinary answers': data(),
  'one word per answer': data('W'.repeat(TEXT_MAX_LENGTH)),
  'prose per answer': data(sentence.repeat(Math.ceil(TEXT_MAX_LENGTH / sentence.length)).slice(0, TEXT_MAX_LENGTH)),
};
const options: PdfOptions = {
  variant: 'full',
  audience: 'lawyer',
  productName: 'Litigation Funding Portal',
  provider: { companyName: 'Provider Finance Ltd', providerRole: 'lender', lenderName: 'Provider Finance Ltd' },
};

console.log(`The application PDF, ${RUNS} runs each`);
for (const [name, pdfData] of Object.entries(cases)) {
  await measure(`${name}, this thread`, () => layoutApplicationPdf(pdfData, options));
  await measure(`${name}, PDF worker`, () => renderInWorker({ data: pdfData, options }, { timeoutMs: 120_000 }));
}
