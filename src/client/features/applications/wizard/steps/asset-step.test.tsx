// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createStore, Provider } from 'jotai';
import { useState } from 'react';
import { sessionAtom, type SessionUser } from '../../../../session/session';
import { clearAllTables, db } from '../../../../offline/db';
import { resetConnectionForTests } from '../../../../api/connection';
import { Overlays } from '../../../../ui/overlays';
import { permissionsByRole } from '../../../../../shared/rules/permissions';
import { assetStep } from './asset-step';
import { emptyAssetValues, type AssetStepValues } from './asset-values';
import { DELETE_FILE_QUESTION } from './documents-upload';
import type { StepFormProps } from './step-definition';

// jsdom's Blob has no arrayBuffer() (browsers do): read it the way jsdom can.
if (typeof Blob.prototype.arrayBuffer !== 'function') {
  Blob.prototype.arrayBuffer = function arrayBuffer(this: Blob) {
    return new Promise<ArrayBuffer>((resolve, reject) => {
      const reader = new FileReader();
      reader.onload = () => resolve(reader.result as ArrayBuffer);
      reader.onerror = () => reject(reader.error ?? new Error('read failed'));
      reader.readAsArrayBuffer(this);
    });
  };
}

// fake-indexeddb clones with Node's structuredClone, so a stored ArrayBuffer comes back from Node's
// realm, not jsdom's: the uploads schema's instanceof check would refuse every row. Browsers have
// one realm; here the check is made by kind.
Object.defineProperty(ArrayBuffer, Symbol.hasInstance, {
  value: (value: unknown) => Object.prototype.toString.call(value) === '[object ArrayBuffer]',
});

vi.setConfig({ testTimeout: 20_000 });

const user: SessionUser = {
  id: 1,
  firmId: 10,
  lawyerId: 5,
  customerId: null,
  role: 'lawyer',
  permissions: [...permissionsByRole.lawyer],
  email: 'lawyer@example.com',
  name: 'Alex',
  surname: 'Morgan',
};

interface ServerFile {
  id: number;
  key: string;
  fileName: string;
}

/** The network: the application's documents list and file deletion; every call is recorded. */
function stubApi(serverFiles: ServerFile[] = []) {
  const calls: string[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(input, init);
    const path = new URL(request.url).pathname.replace(/^\/api/, '');
    const body = request.method === 'GET' ? '' : await request.clone().text();
    calls.push(`${request.method} ${path} ${body}`.trim());
    if (request.method === 'GET' && path === '/applications/42/docs') {
      const files = serverFiles.map((file) => ({
        ...file,
        name: file.fileName,
        url: `/applications/42/docs/formE/download?fileId=${file.id}`,
        type: 'formE',
        size: 2048,
        createdAt: '2025-01-01T10:00:00.000Z',
      }));
      return Response.json({ documents: [{ type: 'formE', state: 'pending', files }] });
    }
    if (request.method === 'POST' && path === '/applications/file/delete') return new Response(null, { status: 204 });
    return Response.json({ error: 'notFound' }, { status: 404 });
  });
  vi.stubGlobal('fetch', fetchMock);
  return calls;
}

let latest: AssetStepValues = emptyAssetValues();

type Abilities = StepFormProps<AssetStepValues>['abilities'];

function Harness({
  initial,
  audience,
  abilities,
}: {
  initial: AssetStepValues;
  audience: 'lawyer' | 'customer';
  abilities?: Abilities;
}) {
  const [values, setValues] = useState(initial);
  latest = values;
  return (
    <>
      <assetStep.Form
        values={values}
        onChange={setValues}
        onTouch={() => undefined}
        errors={{}}
        audience={audience}
        applicationId={42}
        disabled={false}
        abilities={abilities}
      />
      <Overlays />
    </>
  );
}

function renderStep(initial: Partial<AssetStepValues> = {}, audience: 'lawyer' | 'customer' = 'lawyer', abilities?: Abilities) {
  const store = createStore();
  store.set(sessionAtom, { status: 'signedIn', token: 'test-token', user });
  const events = userEvent.setup({ applyAccept: false });
  render(
    <Provider store={store}>
      <Harness initial={{ ...emptyAssetValues(), ...initial }} audience={audience} abilities={abilities} />
    </Provider>,
  );
  return events;
}

function pdf(name: string): File {
  return new File(['%PDF-1.7\n% test document\n'], name, { type: 'application/pdf' });
}

function fileInput(): HTMLInputElement {
  return screen.getByLabelText('Choose files') as HTMLInputElement;
}

/** The file input is disabled while chosen files are read onto the device; a person waits for it too. */
async function readyInput(): Promise<HTMLInputElement> {
  await waitFor(() => expect(fileInput().disabled).toBe(false));
  return fileInput();
}

async function uploadRows() {
  return db.uploads.toArray();
}

beforeEach(async () => {
  await clearAllTables();
  // A test's unanswered request (an upload with no server behind it) leaves the device offline.
  resetConnectionForTests();
  latest = emptyAssetValues();
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** What the sync engine writes as an upload goes (get + put: see the ArrayBuffer note above). */
async function setUpload(localId: string, change: Record<string, unknown>) {
  await act(async () => {
    const row = await db.uploads.get(localId);
    await db.uploads.put({ ...row!, ...change });
  });
}

describe('documents step: Form E uploads', () => {
  it('offers no change of the documents when the server lists Form E among none the caller may change', async () => {
    renderStep({ submittedFormE: true }, 'lawyer', {
      editJourney: true,
      submit: true,
      transitions: [],
      changeDocuments: [],
      checks: [],
      accept: false,
      reject: false,
      withdraw: false,
      updateLoanAmount: false,
      prepareEnvelope: false,
      notifyClient: false,
      sign: false,
      readEmails: false,
    });
    expect(fileInput().disabled).toBe(true);
  });

  it('adds chosen files to the list with their state and progress, and lists them in the step', async () => {
    stubApi();
    const events = renderStep({ submittedFormE: true });
    await events.upload(fileInput(), [pdf('report.pdf'), pdf('statement.pdf')]);

    const list = await screen.findByRole('list', { name: 'Chosen files' });
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(2));
    expect(within(list).getByText('report.pdf')).toBeTruthy();
    const bar = within(list).getByRole('progressbar', { name: 'Upload of report.pdf' });
    expect(bar.getAttribute('value')).toBe('0');
    // Each row reads its upload's state from the device on its own: on a busy machine one comes later.
    await waitFor(() => expect(within(list).getAllByText('Waiting to upload')).toHaveLength(2));

    const rows = await uploadRows();
    await waitFor(() => expect([...latest.documents].sort()).toEqual(rows.map((row) => row.localId).sort()));

    // The sync engine reports progress, then the server's id.
    const first = rows.find((row) => row.fileName === 'report.pdf')!;
    await setUpload(first.localId, { status: 'uploading', progress: 0.45 });
    await waitFor(() => expect(within(list).getByText('45%')).toBeTruthy());
    expect(within(list).getByRole('progressbar', { name: 'Upload of report.pdf' }).getAttribute('value')).toBe('45');
    expect(within(list).getByText('Uploading')).toBeTruthy();

    await setUpload(first.localId, { status: 'uploaded', progress: 1, fileId: 77, key: 'files/77.pdf', data: undefined });
    await waitFor(() => expect(within(list).getByText('Uploaded')).toBeTruthy());
    await waitFor(() => expect(latest.documents[0]).toBe(77));
  });

  it('says a file is waiting for a connection while offline', async () => {
    stubApi();
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    const events = renderStep({ submittedFormE: true });
    await events.upload(fileInput(), [pdf('report.pdf')]);
    expect(await screen.findByText('Waiting for a connection')).toBeTruthy();
  });

  it('refuses a file that is not a PDF, one with a name not accepted and one over 20 MB, naming each', async () => {
    stubApi();
    const events = renderStep({ submittedFormE: true });
    const big = pdf('large.pdf');
    Object.defineProperty(big, 'size', { value: 21 * 1024 * 1024 });
    const fake = new File(['MZ this is a program'], 'report.pdf.exe', { type: 'application/octet-stream' });
    const renamed = new File(['plain text'], 'notes.pdf', { type: 'application/pdf' });
    await events.upload(fileInput(), [big, fake, renamed]);

    expect(await screen.findByText('large.pdf: file size exceeds 20 MB')).toBeTruthy();
    expect(screen.getByText('report.pdf.exe: file name is not acceptable')).toBeTruthy();
    expect(screen.getByText('notes.pdf: this file is not a readable PDF')).toBeTruthy();
    expect(screen.queryByRole('list', { name: 'Chosen files' })).toBeNull();
    expect(await uploadRows()).toHaveLength(0);
  });

  it('ignores a file with a name already in the list, and says so', async () => {
    stubApi([{ id: 5, key: 'files/5.pdf', fileName: 'earlier.pdf' }]);
    const events = renderStep({ submittedFormE: true, documents: [5] });
    expect(await screen.findByText('earlier.pdf')).toBeTruthy();
    await events.upload(fileInput(), [pdf('report.pdf')]);
    await screen.findByText('report.pdf');
    await events.upload(await readyInput(), [pdf('report.pdf'), pdf('earlier.pdf')]);

    expect(await screen.findByText('report.pdf: a file with this name has already been added')).toBeTruthy();
    expect(screen.getByText('earlier.pdf: a file with this name has already been added')).toBeTruthy();
    expect(await uploadRows()).toHaveLength(1);
    const list = screen.getByRole('list', { name: 'Chosen files' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(2);
  });

  it('holds at most 10 files: the 11th is refused', async () => {
    stubApi();
    const events = renderStep({ submittedFormE: true });
    const ten = Array.from({ length: 10 }, (_, i) => pdf(`part-${i + 1}.pdf`));
    await events.upload(fileInput(), ten);
    const list = await screen.findByRole('list', { name: 'Chosen files' });
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(10));

    await events.upload(await readyInput(), [pdf('part-11.pdf')]);
    expect(await screen.findByText('part-11.pdf: at most 10 files can be uploaded')).toBeTruthy();
    expect(await uploadRows()).toHaveLength(10);
    await waitFor(() => expect(latest.documents).toHaveLength(10));
  });

  it('deletes a file only after confirmation, on the server when it is there', async () => {
    const calls = stubApi([{ id: 5, key: 'files/5.pdf', fileName: 'earlier.pdf' }]);
    const events = renderStep({ submittedFormE: true, documents: [5] });
    await events.upload(fileInput(), [pdf('report.pdf')]);
    await screen.findByText('report.pdf');

    await events.click(screen.getByRole('button', { name: 'Delete report.pdf' }));
    await screen.findByRole('alertdialog', { name: DELETE_FILE_QUESTION });
    await events.click(screen.getByRole('button', { name: 'No' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(screen.getByText('report.pdf')).toBeTruthy();

    await events.click(screen.getByRole('button', { name: 'Delete report.pdf' }));
    await screen.findByRole('alertdialog', { name: DELETE_FILE_QUESTION });
    await events.click(screen.getByRole('button', { name: 'Yes' }));
    await waitFor(() => expect(screen.queryByText('report.pdf')).toBeNull());
    expect(await uploadRows()).toHaveLength(0);

    // A file the server holds is deleted there.
    await events.click(screen.getByRole('button', { name: 'Delete earlier.pdf' }));
    await events.click(await screen.findByRole('button', { name: 'Yes' }));
    await waitFor(() => expect(screen.queryByText('earlier.pdf')).toBeNull());
    expect(calls).toContain('POST /applications/file/delete {"fileKey":"files/5.pdf"}');
    expect(latest.documents).toEqual([]);
  });

  it('offers retry for a failed upload', async () => {
    stubApi();
    const events = renderStep({ submittedFormE: true });
    await events.upload(fileInput(), [pdf('report.pdf')]);
    await screen.findByText('report.pdf');
    const [row] = await uploadRows();
    await setUpload(row!.localId, { status: 'failed', progress: 0, error: 'Unhandled error. Please contact an administrator' });
    await screen.findByText('Failed: Unhandled error. Please contact an administrator');
    await waitFor(() => expect(latest.documents).toEqual([]));

    await events.click(screen.getByRole('button', { name: 'retry report.pdf' }));
    await waitFor(async () => expect((await db.uploads.get(row!.localId))?.status).toBe('queued'));
    expect(await db.outbox.count()).toBe(2);
    await waitFor(() => expect(latest.documents).toEqual([row!.localId]));
  });
});

describe('documents step: questions', () => {
  it('shows uploads for Form E and the property and asset questions without it, keeping hidden answers', async () => {
    stubApi();
    const events = renderStep();
    expect(screen.queryByLabelText('Choose files')).toBeNull();
    expect(screen.getByLabelText('Total value of the assets')).toBeTruthy();
    expect(screen.getByLabelText('How will the funding be repaid?')).toBeTruthy();

    const formE = screen.getByRole('radiogroup', { name: 'Has a Form E been completed?' });
    await events.click(within(formE).getByRole('radio', { name: 'Yes' }));
    expect(screen.getByLabelText('Choose files')).toBeTruthy();
    expect(screen.queryByRole('radiogroup', { name: 'Does your client have any other assets to include?' })).toBeNull();

    await events.click(within(formE).getByRole('radio', { name: 'No' }));
    expect(screen.queryByLabelText('Choose files')).toBeNull();
    const property = screen.getByRole('radiogroup', { name: 'Does your client own any other property?' });
    await events.click(within(property).getByRole('radio', { name: 'Yes' }));
    const mode = screen.getByRole('radiogroup', { name: 'How do you want to enter the property address?' });
    await events.click(within(mode).getByRole('radio', { name: 'Enter manually' }));
    await events.type(screen.getByLabelText('Street'), 'High Street');
    await events.type(screen.getByLabelText('Estimated value of the property'), '250000');
    await events.type(screen.getByLabelText('Your client’s interest in the property (%)'), '50');

    // Switching away and back keeps what was typed; toJourney sends only the visible branch.
    await events.click(within(formE).getByRole('radio', { name: 'Yes' }));
    expect(assetStep.toJourney(latest)).not.toHaveProperty('street');
    expect(latest.street).toBe('High Street');
    await events.click(within(formE).getByRole('radio', { name: 'No' }));
    expect((screen.getByLabelText('Street') as HTMLInputElement).value).toBe('High Street');
    expect(assetStep.toJourney(latest)).toMatchObject({
      submittedFormE: false,
      additionalProperty: true,
      street: 'High Street',
      estimatedValue: 250000,
      clientInterest: 50,
    });

    const propertyAgain = screen.getByRole('radiogroup', { name: 'Does your client own any other property?' });
    await events.click(within(propertyAgain).getByRole('radio', { name: 'No' }));
    expect(screen.queryByLabelText('Street')).toBeNull();
    expect(assetStep.toJourney(latest)).not.toHaveProperty('street');
  });

  it('adds and removes assets, asks what an other asset is, and names the cash threshold', async () => {
    stubApi();
    const events = renderStep({ submittedFormE: false }, 'customer');
    const other = screen.getByRole('radiogroup', { name: 'Do you have any other assets to include?' });
    await events.click(within(other).getByRole('radio', { name: 'Yes' }));

    // Yes opens the first asset.
    expect(screen.getByRole('group', { name: 'Asset 1' })).toBeTruthy();
    const first = screen.getByRole('group', { name: 'Asset 1' });
    await events.selectOptions(within(first).getByLabelText('Type of asset'), 'other');
    await events.type(within(first).getByLabelText('What kind of asset is it?'), 'Wine cellar');
    await events.type(within(first).getByLabelText('Realisable value'), '8000');
    await events.type(within(first).getByLabelText('Your interest in the asset (%)'), '100');

    await events.click(screen.getByRole('button', { name: 'Add asset' }));
    const second = screen.getByRole('group', { name: 'Asset 2' });
    await events.selectOptions(within(second).getByLabelText('Type of asset'), 'cashSums');
    expect(within(second).queryByLabelText('What kind of asset is it?')).toBeNull();
    expect(within(second).getByLabelText('Realisable value of cash sums over £5,000')).toBeTruthy();
    await events.type(within(second).getByLabelText('Realisable value of cash sums over £5,000'), '6000');

    await events.click(screen.getByRole('button', { name: 'Add asset' }));
    expect(screen.getByRole('group', { name: 'Asset 3' })).toBeTruthy();
    await events.click(screen.getByRole('button', { name: 'Remove asset 3' }));
    expect(screen.queryByRole('group', { name: 'Asset 3' })).toBeNull();

    expect(assetStep.toJourney(latest).assets).toEqual([
      { type: 'other', typeoOther: 'Wine cellar', valueOfRealisable: 8000, clientsInterest: 100 },
      { type: 'cashSums', valueOfRealisable: 6000 },
    ]);

    await events.click(screen.getByRole('button', { name: 'Remove asset 1' }));
    const now = screen.getByRole('group', { name: 'Asset 1' });
    expect((within(now).getByLabelText('Type of asset') as HTMLSelectElement).value).toBe('cashSums');

    // No hides the list and does not send it; the answers stay for a change of mind.
    await events.click(within(other).getByRole('radio', { name: 'No' }));
    expect(screen.queryByRole('group', { name: 'Asset 1' })).toBeNull();
    expect(assetStep.toJourney(latest)).not.toHaveProperty('assets');
    expect(latest.assets).toHaveLength(1);
  });

  it('finds a property address by postcode', async () => {
    const calls = stubApi();
    const fetchMock = vi.mocked(globalThis.fetch);
    const base = fetchMock.getMockImplementation()!;
    fetchMock.mockImplementation(async (input, init) => {
      const request = input instanceof Request ? input : new Request(input, init);
      if (new URL(request.url).pathname === '/api/common/postcode') {
        calls.push(`GET /common/postcode${new URL(request.url).search}`);
        return Response.json({ postcode: 'LS14AB', addresses: ['4 High Street, Leeds', '6 High Street, Leeds'] });
      }
      return base(input, init);
    });
    const events = renderStep({ submittedFormE: false, additionalProperty: true, addressType: 'postcode' });
    await events.type(screen.getByLabelText('Postcode'), 'ls1 4ab');
    await events.click(screen.getByRole('button', { name: 'Find address' }));
    // Typing looked up 'LS14A' already; the full postcode follows within the 500 ms throttle.
    await waitFor(() => expect(calls).toContain('GET /common/postcode?postcode=LS14AB'), { timeout: 2000 });
    const address = (await screen.findByLabelText('Property address')) as HTMLSelectElement;
    await events.selectOptions(address, '6 High Street, Leeds');
    expect(assetStep.toJourney(latest)).toMatchObject({
      addressType: 'postcode',
      postcode: 'LS1 4AB',
      address: '6 High Street, Leeds',
    });
  });
});

describe('documents step definition', () => {
  it('repairs a broken draft and reads journey data', () => {
    expect(assetStep.parseDraft({ submittedFormE: 'yes', documents: ['3'], assets: 'nope' })).toMatchObject({
      submittedFormE: true,
      documents: [3],
      assets: [],
    });
    expect(assetStep.parseDraft(undefined)).toBeNull();
    expect(assetStep.fromJourney({ submittedFormE: true, documents: [3], assetValue: 12.5 })).toMatchObject({
      submittedFormE: true,
      documents: [3],
      assetValue: '12.5',
    });
    expect(assetStep.empty()).toEqual(emptyAssetValues());
  });
});
