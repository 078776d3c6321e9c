// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { currentUrl, json, renderApp } from '../../../test/render-app';
import { clearAllTables, db } from '../../../offline/db';
import { readDraftRow, writeDraft } from '../../../offline/drafts';
import { stepDraftKey } from '../offline/application-ids';
import type { Journey } from '../../../../shared/journey/steps';
import { stepDefinitions } from './steps/registry';
import {
  application,
  installDomShims,
  validAsset,
  validCase,
  validFinancial,
  validIndependent,
  validPersonal,
} from './wizard-fixtures';

beforeAll(installDomShims);

// Screens load as lazy chunks and the outbox goes through IndexedDB: slower than a unit test.
vi.setConfig({ testTimeout: 20_000 });

afterEach(async () => {
  await clearAllTables();
});

const USER_ID = 1;

function getApp(journey: Journey, overrides: Record<string, unknown> = {}) {
  return { 'GET /applications/1': () => json(200, application(1, journey, overrides)) };
}

async function landsOn(router: Parameters<typeof currentUrl>[0], url: string) {
  await waitFor(() => expect(currentUrl(router)).toBe(url));
}

describe('leaving a step with typing', () => {
  it('a reload does not ask once the draft is on the device; leaving the page in the app still asks', async () => {
    const { user } = renderApp('/applications/1/case', { role: 'lawyer', handlers: getApp({ personal: validPersonal }) });
    await user.type(await screen.findByLabelText('Case reference'), 'AB-1');
    const unloadAsks = () => {
      const event = new Event('beforeunload', { cancelable: true });
      window.dispatchEvent(event);
      return event.defaultPrevented;
    };
    await waitFor(() => expect(unloadAsks()).toBe(false));
    const bar = screen.getByRole('navigation', { name: 'Application steps' });
    await user.click(within(bar).getByRole('link', { name: /Client details/ }));
    expect(await screen.findByRole('alertdialog')).toBeTruthy();
  });
});

describe('wizard routing', () => {
  it('opens the first incomplete step from the list link', async () => {
    const { router } = renderApp('/applications/1/resume', { role: 'lawyer', handlers: getApp({ personal: validPersonal }) });
    await landsOn(router, '/applications/1/case');
    expect(await screen.findByRole('heading', { level: 1, name: 'Case details' })).toBeTruthy();
  });

  it('sends a locked step to the first incomplete step', async () => {
    const { router } = renderApp('/applications/1/financial', { role: 'lawyer', handlers: getApp({ personal: validPersonal }) });
    await landsOn(router, '/applications/1/case');
  });

  it('shows the step bar with completed, current and disabled steps', async () => {
    renderApp('/applications/1/case', { role: 'lawyer', handlers: getApp({ personal: validPersonal }) });
    const bar = await screen.findByRole('navigation', { name: 'Application steps' });
    expect(
      within(bar)
        .getByRole('link', { name: /Client details/ })
        .getAttribute('href'),
    ).toBe('/applications/1/personal');
    expect(within(bar).getByText('Case details').closest('[aria-current]')?.getAttribute('aria-current')).toBe('step');
    expect(within(bar).queryByRole('link', { name: /Financial details/ })).toBeNull();
    expect(within(bar).getByText('Financial details').closest('[aria-disabled]')).toBeTruthy();
  });

  it('sends other roles and unknown steps to /applications', async () => {
    const root = renderApp('/applications/1/personal', { role: 'root', handlers: getApp({}) });
    await landsOn(root.router, '/applications');
    root.unmount();
    localStorage.clear();
    const unknown = renderApp('/applications/1/bogus', { role: 'lawyer', handlers: getApp({}) });
    await landsOn(unknown.router, '/applications');
  });

  it('sends a submitted application to its details', async () => {
    const { router } = renderApp('/applications/1/personal', {
      role: 'lawyer',
      handlers: getApp({ personal: validPersonal }, { status: 'submitted' }),
    });
    await landsOn(router, '/applications/1/details');
  });

  it("follows the server's word on what the caller may do with the record", async () => {
    const { router } = renderApp('/applications/1/personal', {
      role: 'lawyer',
      handlers: getApp(
        { personal: validPersonal },
        { abilities: { editJourney: false, submit: false, transitions: [], changeDocuments: false } },
      ),
    });
    await landsOn(router, '/applications/1/details');
  });

  it('shows not found for an application out of reach', async () => {
    renderApp('/applications/9/personal', { role: 'lawyer', handlers: {} });
    expect(await screen.findByRole('heading', { name: 'The page you were looking for doesn’t exist.' })).toBeTruthy();
  });

  it('sends the independent step to the documents step when Form E has no documents', async () => {
    const journey = {
      personal: validPersonal,
      case: validCase,
      financial: validFinancial,
      asset: { submittedFormE: true, documents: [], assetValue: 1000, routeToRepayment: 'Sale' },
    } as Journey;
    const { router } = renderApp('/applications/1/independent', { role: 'lawyer', handlers: getApp(journey) });
    await landsOn(router, '/applications/1/asset');
  });

  it('gives the client their own form: steps, titles and reachability', async () => {
    const { router } = renderApp('/applications/1/case', { role: 'customer', handlers: getApp({ personal: validPersonal }) });
    await landsOn(router, '/applications/1/client');
    expect(await screen.findByRole('heading', { level: 1, name: 'Client Confirmations' })).toBeTruthy();
    const bar = screen.getByRole('navigation', { name: 'Application steps' });
    expect(within(bar).getByText('Personal Information')).toBeTruthy();
    expect(within(bar).getByText('Summary')).toBeTruthy();
  });
});

describe('wizard drafts and saving', () => {
  it('restores what was typed after the screen is opened again', async () => {
    const first = renderApp('/applications/1/case', { role: 'lawyer', handlers: getApp({ personal: validPersonal }) });
    const caseRef = await screen.findByLabelText<HTMLInputElement>('Case reference');
    await first.user.type(caseRef, 'DRAFT-1');
    await new Promise((resolve) => setTimeout(resolve, 600));
    first.unmount();
    renderApp('/applications/1/case', { role: 'lawyer', handlers: getApp({ personal: validPersonal }) });
    const restored = await screen.findByLabelText<HTMLInputElement>('Case reference');
    await waitFor(() => expect(restored.value).toBe('DRAFT-1'));
  });

  it('saves through the outbox and goes on to the next step', async () => {
    const journey = { personal: validPersonal, case: validCase } as Journey;
    const { router, user, calls } = renderApp('/applications/1/case', {
      role: 'lawyer',
      handlers: {
        ...getApp(journey),
        'POST /applications/update/case': () => json(200, { data: { case: validCase }, version: 2 }),
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Save & Continue' }));
    await landsOn(router, '/applications/1/financial');
    const save = calls.find((call) => call.path === '/applications/update/case');
    expect(save?.body).toMatchObject({ applicationId: 1, baseVersion: 1, journeyData: { case: { caseRef: 'NF-2026-77' } } });
  });

  it('a save answered after the user went to another step leaves them there', async () => {
    const journey = { personal: validPersonal, case: validCase } as Journey;
    let answer: (response: Response) => void = () => {};
    const { router, user, calls } = renderApp('/applications/1/case', {
      role: 'lawyer',
      handlers: {
        ...getApp(journey),
        'POST /applications/update/case': () => new Promise<Response>((resolve) => (answer = resolve)),
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Save & Continue' }));
    await waitFor(() => expect(calls.some((call) => call.path === '/applications/update/case')).toBe(true));
    const bar = screen.getByRole('navigation', { name: 'Application steps' });
    await user.click(within(bar).getByRole('link', { name: /Client details/ }));
    await landsOn(router, '/applications/1/personal');
    answer(json(200, { data: { case: validCase }, version: 2 }));
    // The save is done (the step's draft goes), and the page stays where the user went.
    await waitFor(async () => expect(await readDraftRow(USER_ID, stepDraftKey(1, 'case'))).toBeUndefined());
    // Time for a move the answer would make (without the check it went on to the financial step).
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(currentUrl(router)).toBe('/applications/1/personal');
  });

  it('shows the messages of a refused save on their fields', async () => {
    const journey = { personal: validPersonal, case: validCase } as Journey;
    const { router, user } = renderApp('/applications/1/case', {
      role: 'lawyer',
      handlers: {
        ...getApp(journey),
        'POST /applications/update/case': () => json(400, { error: 'validation', fields: { caseRef: 'tooLong' } }),
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Save & Continue' }));
    expect(await screen.findByText('This entry is too long')).toBeTruthy();
    // Said at the top of the step, focused, with a link to the field (decision 432).
    const summary = await screen.findByRole('alert', { name: 'There is a problem' });
    expect(within(summary).getByText('Please check the highlighted fields')).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(summary));
    const link = await within(summary).findByRole('link', { name: 'Case reference: This entry is too long' });
    await user.click(link);
    expect(document.activeElement).toBe(screen.getByLabelText('Case reference'));
    expect(currentUrl(router)).toBe('/applications/1/case');
  });

  it('a save refused because the application moved on says who and when; its changes can be let go', async () => {
    const journey = { personal: validPersonal, case: validCase } as Journey;
    const statusChange = { status: 'submitted', at: '2026-07-01T13:05:00.000Z', by: 'client', name: 'Nina Fairweather' };
    const { router, user } = renderApp('/applications/1/case', {
      role: 'lawyer',
      handlers: {
        ...getApp(journey),
        'POST /applications/update/case': () => json(409, { error: 'notEditable', details: { statusChange } }),
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Save & Continue' }));
    const summary = await screen.findByRole('alert', { name: 'There is a problem' });
    expect(within(summary).getByText('This application can no longer be changed.')).toBeTruthy();
    expect(
      within(summary).getByText('Nina Fairweather (your client) submitted this application on 01/07/2026 at 14:05.'),
    ).toBeTruthy();
    expect(within(summary).getByRole('link', { name: 'View the application' }).getAttribute('href')).toBe(
      '/applications/1/details',
    );
    const status = screen.getByTestId('sync-status');
    await waitFor(() => expect(status.textContent).toContain('Needs your attention'));
    expect(screen.getByText('Not saved: see the message at the top of the step')).toBeTruthy();

    await user.click(within(summary).getByRole('button', { name: 'Discard my changes to this step' }));
    await landsOn(router, '/applications/1/details');
    await waitFor(() => expect(status.textContent).not.toContain('Needs your attention'));
  });

  it('lets the user choose field by field after a conflict and saves on the server version', async () => {
    const journey = { personal: validPersonal, case: validCase } as Journey;
    let saves = 0;
    const { router, user, calls } = renderApp('/applications/1/case', {
      role: 'lawyer',
      handlers: {
        ...getApp(journey),
        'POST /applications/update/case': () => {
          saves += 1;
          if (saves === 1) {
            return json(409, {
              error: 'conflict',
              current: { data: { case: { ...validCase, caseRef: 'SERVER-REF', timeEstimation: '1 year' } }, version: 3 },
            });
          }
          return json(200, { data: { case: validCase }, version: 4 });
        },
      },
    });
    const caseRef = await screen.findByLabelText<HTMLInputElement>('Case reference');
    await user.clear(caseRef);
    await user.type(caseRef, 'MINE-REF');
    await user.click(screen.getByRole('button', { name: 'Save & Continue' }));
    const dialog = await screen.findByRole('dialog');
    const refGroup = within(dialog).getByRole('group', { name: 'Case reference' });
    expect(within(refGroup).getByText('MINE-REF')).toBeTruthy();
    expect(within(refGroup).getByText('SERVER-REF')).toBeTruthy();
    await user.click(within(refGroup).getByRole('radio', { name: /Saved version/ }));
    // The other differing field keeps 'Your version' (the default).
    expect(within(dialog).getAllByRole('group')).toHaveLength(2);
    await user.click(within(dialog).getByRole('button', { name: 'Save chosen values' }));
    await landsOn(router, '/applications/1/financial');
    const second = calls.filter((call) => call.path === '/applications/update/case')[1];
    expect(second?.body).toMatchObject({
      baseVersion: 3,
      journeyData: { case: { caseRef: 'SERVER-REF', timeEstimation: '9 months' } },
    });
  });

  it('a save the server fails while the device is online is kept, and not blamed on the connection', async () => {
    const journey = { personal: validPersonal, case: validCase } as Journey;
    const { router, user } = renderApp('/applications/1/case', {
      role: 'lawyer',
      handlers: { ...getApp(journey), 'POST /applications/update/case': () => json(500, { error: 'unhandled' }) },
    });
    await user.click(await screen.findByRole('button', { name: 'Save & Continue' }));
    expect(await screen.findByText('Saved on this device. It will be sent as soon as the server takes it.')).toBeTruthy();
    expect(screen.queryByText('Saved on this device. It will be sent when you are back online.')).toBeNull();
    await landsOn(router, '/applications/1/financial');
  });

  it('keeps the step on the device and moves on when offline', async () => {
    const journey = { personal: validPersonal, case: validCase } as Journey;
    const { router, user } = renderApp('/applications/1/case', {
      role: 'lawyer',
      handlers: {
        ...getApp(journey),
        'POST /applications/update/case': () => {
          throw new TypeError('Failed to fetch');
        },
      },
    });
    await screen.findByRole('button', { name: 'Save & Continue' });
    Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => false });
    try {
      await user.click(screen.getByRole('button', { name: 'Save & Continue' }));
      expect(await screen.findByText('Saved on this device. It will be sent when you are back online.')).toBeTruthy();
      await landsOn(router, '/applications/1/financial');
    } finally {
      Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => true });
    }
  });

  it('a step queued before a reload stays done while its save goes and the application is read again', async () => {
    // Saved offline on the case step, then the page was reloaded on the financial step: the save
    // waits in the outbox, and the server's copy has no case yet.
    await db.outbox.add({
      id: 'queued-case-save',
      userId: USER_ID,
      kind: 'saveStep',
      payload: { applicationId: 1, step: 'case', baseVersion: 1, data: validCase },
      createdAt: Date.now(),
      attempts: 0,
    });
    let releaseSave: () => void = () => {};
    const saveMayGo = new Promise<void>((resolve) => (releaseSave = resolve));
    let serverHasCase = false;
    const { router } = renderApp('/applications/1/financial', {
      role: 'lawyer',
      handlers: {
        'GET /applications/1': async () => {
          const journey = serverHasCase ? { personal: validPersonal, case: validCase } : { personal: validPersonal };
          // The read after the save answers late: until then the page knows the case only as queued.
          if (serverHasCase) await new Promise((resolve) => setTimeout(resolve, 300));
          return json(200, application(1, journey as Journey));
        },
        'POST /applications/update/case': async () => {
          await saveMayGo;
          serverHasCase = true;
          return json(200, { data: { case: validCase }, version: 2 });
        },
      },
    });
    expect(await screen.findByRole('heading', { level: 1, name: /Financial details/ })).toBeTruthy();
    releaseSave();
    await waitFor(async () => expect(await db.outbox.count()).toBe(0));
    // Not sent back to the case step (which would show the server's old, empty copy) at any point.
    for (let i = 0; i < 8; i++) {
      expect(currentUrl(router)).toBe('/applications/1/financial');
      await new Promise((resolve) => setTimeout(resolve, 60));
    }
  });

  it('starts from a stored draft written days ago', async () => {
    const values = stepDefinitions.case.fromJourney({ ...validCase, caseRef: 'OLD-DRAFT' });
    await writeDraft(USER_ID, stepDraftKey(1, 'case'), values, { baseVersion: 0 });
    renderApp('/applications/1/case', { role: 'lawyer', handlers: getApp({ personal: validPersonal }) });
    const restored = await screen.findByLabelText<HTMLInputElement>('Case reference');
    await waitFor(() => expect(restored.value).toBe('OLD-DRAFT'));
  });
});

describe('summary', () => {
  const complete = {
    personal: validPersonal,
    case: validCase,
    financial: validFinancial,
    asset: validAsset,
    independent: validIndependent,
  } as Journey;

  it('shows every step read only and submits after a confirmation', async () => {
    const { router, user, calls } = renderApp('/applications/1/summary', {
      role: 'lawyer',
      handlers: {
        ...getApp(complete),
        'POST /applications/state/update': () => json(200, application(1, complete, { status: 'submitted' })),
        'GET /applications': () => json(200, { items: [], total: 0, page: 1, pageSize: 10 }),
      },
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Final summary and submit' })).toBeTruthy();
    expect(screen.getByText('NF-2026-77')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 2, name: 'Financial details' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'submit application' }));
    const question = await screen.findByRole('alertdialog');
    expect(within(question).getByText('Are you sure you want to submit this application?')).toBeTruthy();
    expect(calls.some((call) => call.path === '/applications/state/update')).toBe(false);
    await user.click(within(question).getByRole('button', { name: 'Yes' }));
    await landsOn(router, '/applications');
    expect(calls.find((call) => call.path === '/applications/state/update')?.body).toEqual({
      applicationId: 1,
      state: 'submitted',
    });
    expect(await screen.findByText('The application has been submitted.')).toBeTruthy();
  });

  it('offers the submit only when the server says the caller may submit', async () => {
    const abilities = { editJourney: true, submit: false, transitions: [], changeDocuments: ['formE'] };
    renderApp('/applications/1/summary', { role: 'lawyer', handlers: getApp(complete, { abilities }) });
    expect(await screen.findByRole('button', { name: 'Download PDF' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'submit application' })).toBeNull();
  });

  it('opens the PDF link, or says the error', async () => {
    const { user } = renderApp('/applications/1/summary', {
      role: 'lawyer',
      handlers: { ...getApp(complete), 'GET /pdf-generator/for-application-json/1': () => json(500, { error: 'unhandled' }) },
    });
    const opened = {
      closed: false,
      close() {
        this.closed = true;
      },
      location: { href: '' },
    };
    window.open = (() => opened) as unknown as typeof window.open;
    await user.click(await screen.findByRole('button', { name: 'Download PDF' }));
    expect(await screen.findByText('Unhandled error. Please contact an administrator')).toBeTruthy();
    expect(opened.closed).toBe(true);
  });

  const formE = { submittedFormE: true, documents: [41], assetValue: 300000, routeToRepayment: 'Settlement proceeds' };
  const formEFile = {
    id: 41,
    name: 'Form E',
    url: '/applications/1/docs/formE/download?fileId=41',
    key: 'k41',
    fileName: 'form-e.pdf',
    type: 'formE',
    size: 2048,
    createdAt: '2024-01-15T10:00:00.000Z',
  };
  const solicitors = {
    'GET /solicitors': () =>
      json(200, {
        items: [
          {
            id: 3,
            name: 'Greenway Legal Advice',
            address: {
              address: '14 Greycoat Place',
              house: '14',
              street: 'Greycoat Place',
              city: 'London',
              postcode: 'SW1A 2AA',
            },
            contactNumber: '020 7946 0321',
            email: 'advice@greenway-legal.test',
            fee: 250,
            deliveryMethod: 'Video call',
            casesAmount: 0,
            abilities: { edit: false, delete: false },
          },
        ],
        total: 1,
        page: 1,
        pageSize: 100,
      }),
  };

  it('names the solicitor and the files, and shows the birth date and addresses as a reader expects', async () => {
    const journey = { ...complete, asset: formE, independent: { solicitorId: 3, consent: true, authorised: true } } as Journey;
    renderApp('/applications/1/summary', {
      role: 'lawyer',
      handlers: { ...getApp(journey, { files: [formEFile] }), ...solicitors },
    });
    expect(await screen.findByText('Greenway Legal Advice')).toBeTruthy();
    expect(screen.getByText('form-e.pdf')).toBeTruthy();
    expect(screen.getByText('02/07/1985')).toBeTruthy();
    expect(screen.getByText('Current address')).toBeTruthy();
    expect(screen.queryByText('Please complete these steps first:')).toBeNull();
    // The summary is not announced as completed before the application is submitted.
    const bar = screen.getByRole('navigation', { name: 'Application steps' });
    expect(within(bar).getByText('Final summary and submit').parentElement?.textContent).not.toContain('(completed)');
    expect(within(bar).getByText('Supporting documents and assets').closest('a')?.textContent).toContain('(completed)');
  });

  it('a Form E whose only file was deleted: the summary, the step bar and the submit say so, with a link', async () => {
    // The step still names file 41, which the server no longer lists.
    const journey = { ...complete, asset: formE } as Journey;
    const { user, calls } = renderApp('/applications/1/summary', {
      role: 'lawyer',
      handlers: { ...getApp(journey, { files: [] }), ...solicitors },
    });
    const blockers = (await screen.findByText('Please complete these steps first:')).parentElement!;
    const link = within(blockers).getByRole('link', { name: 'Supporting documents and assets' });
    expect(link.getAttribute('href')).toBe('/applications/1/asset');
    expect(screen.getByText('None')).toBeTruthy();
    expect(screen.queryByText('1 document')).toBeNull();
    const bar = screen.getByRole('navigation', { name: 'Application steps' });
    expect(within(bar).getByText('Supporting documents and assets').closest('a')?.textContent).toContain('(needs attention)');
    await user.click(screen.getByRole('button', { name: 'submit application' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(calls.some((call) => call.path === '/applications/state/update')).toBe(false);
    await waitFor(() => expect(document.activeElement).toBe(blockers));
  });

  it('a submit refused because the status moved on says who and when at the top, and waits until dismissed', async () => {
    const statusChange = { status: 'providerRejected', at: '2026-07-01T13:05:00.000Z', by: 'provider' };
    const { user } = renderApp('/applications/1/summary', {
      role: 'lawyer',
      handlers: {
        ...getApp(complete),
        'POST /applications/state/update': () => json(409, { error: 'conflict', details: { statusChange } }),
      },
    });
    await user.click(await screen.findByRole('button', { name: 'submit application' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Yes' }));
    const summary = await screen.findByRole('alert', { name: 'There is a problem' });
    expect(within(summary).getByText('This application could not be submitted.')).toBeTruthy();
    expect(within(summary).getByText('The provider rejected this application on 01/07/2026 at 14:05.')).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(summary));
    // Never 'All changes saved' over a refused write.
    const status = screen.getByTestId('sync-status');
    await waitFor(() => expect(status.textContent).toContain('Needs your attention'));

    await user.click(within(summary).getByRole('button', { name: 'dismiss' }));
    await waitFor(() => expect(screen.queryByRole('alert', { name: 'There is a problem' })).toBeNull());
    await waitFor(() => expect(status.textContent).toContain('All changes saved'));
  });

  it('a submit the server refuses names the steps that block it, with links', async () => {
    const { user } = renderApp('/applications/1/summary', {
      role: 'lawyer',
      handlers: {
        ...getApp(complete),
        'POST /applications/state/update': () => json(400, { error: 'incompleteSteps', fields: { financial: 'required' } }),
      },
    });
    await user.click(await screen.findByRole('button', { name: 'submit application' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Yes' }));
    const blockers = (await screen.findByText('Please complete these steps first:')).parentElement!;
    expect(within(blockers).getByRole('link', { name: 'Financial details' }).getAttribute('href')).toBe(
      '/applications/1/financial',
    );
    // Said by the list of steps, not kept as a refusal waiting to be read.
    await waitFor(() => expect(screen.getByTestId('sync-status').textContent).toContain('All changes saved'));
  });

  it('sends the independent step back to the documents when the only Form E file was deleted', async () => {
    const journey = { ...complete, asset: formE } as Journey;
    const { router } = renderApp('/applications/1/independent', { role: 'lawyer', handlers: getApp(journey, { files: [] }) });
    await landsOn(router, '/applications/1/asset');
  });
});
