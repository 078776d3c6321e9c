// The offline engine's figures in Chromium on a slow phone (390 px, CPU 4× slower):
//  (a) saving a draft: for each of many keystrokes in a step of the wizard, the time the keystroke
//      takes to handle (the input event until the form has rendered again) and the time until the
//      draft row is written in IndexedDB (the ~300 ms debounce plus the write). Keystrokes are typed
//      one at a time, each after the previous one has settled, so each is measured on its own: the
//      second figure is how long after the last keystroke the text is safe on the device.
//  (b) syncing 100 queued step saves to the local server: 20 applications × 5 steps queued in the
//      outbox while offline (the rows the wizard's 'Save & Continue' queues), then from the `online`
//      event until the outbox is empty, checked against the server's step versions.
// Figures only, no pass or fail. It builds the app if needed and starts its own server with a fresh
// embedded database on a free local port.
//   node scripts/bench-offline.mjs        (part of npm run bench; KEYSTROKES=n to change the count,
//                                          PARTS=drafts,sync,server to choose the parts)
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { tsImport } from 'tsx/esm/api';
import { launchChromium, openPhonePage, root, signInThroughApi, startBenchServer } from './bench-server.mjs';

// The journey fixture is TypeScript, shared with the tests; tsx (the server's runner) loads it.
const journeys = await tsImport('../tests/fixtures/journeys.ts', import.meta.url);

const KEYSTROKES = Number(process.env.KEYSTROKES ?? 200);
// The goals (decision 384), printed beside the figures: the IndexedDB write of a draft, and 100
// queued step saves of 20 applications synced with every one held exactly once, CPU 4× slower.
const GOALS = {
  draftWrite: { ms: 8, text: '≤ 8 ms' },
  sync: { ms: 3000, text: '≤ 3000 ms, all held once' },
};
// PARTS=drafts or PARTS=sync runs one part only.
const PARTS = (process.env.PARTS ?? 'drafts,sync,server').split(',');
const WARM_UP = 10;
const SYNC_RUNS = 3;
const APPLICATIONS = 20;
// The lawyer's five steps (the client confirmation is the client's own). The same 20 applications
// serve every run (a lawyer may create 30 an hour): each run saves every step on its current version.
const STEPS = ['personal', 'case', 'financial', 'asset', 'independent'];
const LAWYER = { login: 'lawyer@demo.test', password: 'Demo-pass-1' };
// The draft write is timed by `performance.measure('portal:draft-write')` in src/client/offline/drafts.ts.
const DRAFT_MEASURE = 'portal:draft-write';

const staticDir = process.env.STATIC_DIR ? path.resolve(process.env.STATIC_DIR) : path.join(root, 'dist');
if (!builtWithDraftMeasure(staticDir)) {
  if (process.env.STATIC_DIR) throw new Error(`${staticDir} is missing or older than the draft-write measure: build it again`);
  const built = spawnSync(process.execPath, [path.join(root, 'node_modules/vite/bin/vite.js'), 'build'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (built.status !== 0) process.exit(built.status ?? 1);
}

const { base, stop } = await startBenchServer({ staticDir });

let emails = 0;
/** Each application's personal step as created (its save sends it again: the email stays). */
const personalOf = new Map();
let applications = null;
let profiled = false;

try {
  const session = await signInThroughApi(base, LAWYER);
  const browser = await launchChromium();

  if (PARTS.includes('drafts')) await printDrafts(browser, session);
  if (PARTS.includes('sync')) await printSync(browser, session);
  if (PARTS.includes('server')) await printServer(session);
  await browser.close();
} finally {
  stop();
}

async function printDrafts(browser, session) {
  const drafts = await measureDrafts(browser, session);
  console.log(
    `\nSaving a draft on a slow phone (390 px, CPU 4× slower), ${drafts.count} keystrokes one at a time (after ${WARM_UP} not counted)\n`,
  );
  console.log('measure                                        p50 ms   p95 ms   goal (p95)');
  console.log('---------------------------------------------  -------  -------  ----------------');
  const row = (name, values, goal = '') => {
    const p95 = percentile(values, 95);
    const verdict = goal ? `${goal.text} (${p95 <= goal.ms ? 'met' : 'not met'})` : '';
    console.log(`${name.padEnd(45)}  ${fmt(percentile(values, 50))}  ${fmt(p95)}  ${verdict}`);
  };
  row('keystroke handled (input event to re-render)', drafts.handled);
  row('draft safe (input event to row in IndexedDB)', drafts.safe);
  row('  of which the IndexedDB write', drafts.write, GOALS.draftWrite);
}

async function printSync(browser, session) {
  console.log(
    `\nSyncing ${APPLICATIONS * STEPS.length} queued step saves to the local server (390 px), from going online to an empty outbox, median of ${SYNC_RUNS} runs\n`,
  );
  console.log(
    'CPU              saves   total ms   per save ms   page task / script ms a save   calls   list reads   IndexedDB transactions a save (read / write)   held by the server   goal (4× slower)',
  );
  console.log(
    '---------------  -----  ---------  ------------  -----------------------------  -----  ----------  ---------------------------------------------  -------------------  -----------------------------',
  );
  for (const rate of [4, 1]) {
    const runs = [];
    for (let i = 0; i < SYNC_RUNS; i++) runs.push(await measureSync(browser, session, rate));
    const median = runs.map((r) => r.totalMs).sort((a, b) => a - b)[Math.floor(runs.length / 2)];
    const run = runs.find((r) => r.totalMs === median);
    const held = runs.map((r) => `${r.held}/${r.count}`).join(', ');
    const perSave = (mode) => (run.transactions ? (run.transactions[mode] / run.count).toFixed(1) : '?');
    const transactions = `${perSave('readonly')} / ${perSave('readwrite')}`;
    const page = `${(run.taskMs / run.count).toFixed(1)} / ${(run.scriptMs / run.count).toFixed(1)}`;
    console.log(
      `${(rate === 1 ? 'not slowed' : `${rate}× slower`).padEnd(15)}  ${String(run.count).padStart(5)}  ${String(Math.round(median)).padStart(9)}  ${(median / run.count).toFixed(1).padStart(12)}  ${page.padEnd(29)}  ${String(run.calls).padStart(5)}  ${String(run.listReads).padStart(10)}  ${transactions.padEnd(45)}  ${held.padEnd(19)}  ${rate === 4 ? `${GOALS.sync.text} (${median <= GOALS.sync.ms && runs.every((r) => r.held === r.count) ? 'met' : 'not met'})` : ''}`,
    );
  }
}

/**
 * (c) The server alone: the same 100 saves sent from here (no browser), one after another and with
 * 4 and 20 applications side by side (each application's saves in order), so the share of the
 * sync that is the server's own work is known.
 */
async function printServer(session) {
  console.log(`\nThe server alone: ${APPLICATIONS * STEPS.length} step saves sent from Node, each application's in order\n`);
  console.log('applications side by side   total ms   per save ms');
  console.log('-------------------------   --------   -----------');
  for (const lanes of [1, 4, APPLICATIONS]) {
    const ids = await benchApplications(session);
    const versions = new Map();
    for (const id of ids) versions.set(id, await versionsOf(session, id));
    const queue = [...ids];
    const start = performance.now();
    await Promise.all(
      Array.from({ length: lanes }, async () => {
        for (let id = queue.shift(); id !== undefined; id = queue.shift())
          for (const step of STEPS) await saveStep(session, id, step, versions.get(id)[step] ?? 0);
      }),
    );
    const total = performance.now() - start;
    const count = APPLICATIONS * STEPS.length;
    console.log(
      `${String(lanes).padEnd(25)}   ${String(Math.round(total)).padStart(8)}   ${(total / count).toFixed(1).padStart(11)}`,
    );
  }
}

/** (a) Types into the financial step's housing arrangements of a new application, one key at a time. */
async function measureDrafts(browser, session) {
  const applicationId = await createApplication(session);
  // The financial step is reachable once the steps before it are complete.
  await saveStep(session, applicationId, 'case', 0);

  const { context, page, cdp } = await openPhonePage(browser, session, 4);
  await page.addInitScript((measureName) => {
    const w = window;
    w.__writes = [];
    w.__inputs = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        if (entry.name === measureName) w.__writes.push({ start: entry.startTime, end: entry.startTime + entry.duration });
      }
    }).observe({ type: 'measure' });
    // Capture on window runs first, bubbling on window last (after React's listeners on its root
    // and the synchronous render React does for a discrete event).
    addEventListener('input', (event) => (w.__current = { at: event.timeStamp }), true);
    addEventListener('input', () => {
      if (w.__current) w.__inputs.push({ ...w.__current, handled: performance.now() });
      w.__current = null;
    });
  }, DRAFT_MEASURE);
  await page.goto(`${base}/applications/${applicationId}/financial`, { waitUntil: 'networkidle' });
  const field = page.getByLabel('What are your client’s intended housing arrangements?');
  await field.waitFor();
  await field.click();

  const text = 'Renting a flat near the children’s school with room for them at weekends, then buying. ';
  for (let i = 0; i < WARM_UP + KEYSTROKES; i++) {
    if (i === WARM_UP) await page.evaluate(() => ((window.__inputs = []), (window.__writes = [])));
    // PROFILE_DRAFTS=file.cpuprofile keeps the page's CPU profile of the counted keystrokes.
    if (i === WARM_UP && process.env.PROFILE_DRAFTS) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.start');
    }
    const before = await page.evaluate(() => window.__writes.length);
    await page.keyboard.type(text[i % text.length]);
    await page.waitForFunction((n) => window.__writes.length > n, before, { polling: 10, timeout: 10_000 });
    // Let the rest settle (the re-render after the write; the unsaved mark lifted at 400 ms).
    await page.waitForTimeout(150);
  }
  if (process.env.PROFILE_DRAFTS) {
    const { profile } = await cdp.send('Profiler.stop');
    fs.writeFileSync(process.env.PROFILE_DRAFTS, JSON.stringify(profile));
  }
  const { inputs, writes } = await page.evaluate(() => ({ inputs: window.__inputs, writes: window.__writes }));
  await context.close();

  const handled = [];
  const safe = [];
  const write = [];
  for (const input of inputs) {
    const stored = writes.find((w) => w.start >= input.handled);
    if (!stored) continue;
    handled.push(input.handled - input.at);
    safe.push(stored.end - input.at);
    write.push(stored.end - stored.start);
  }
  return { count: safe.length, handled, safe, write };
}

/**
 * (b) Queues 100 step saves while offline, exactly as the wizard's 'Save & Continue' leaves them
 * (an outbox row with its idempotency id and a draft marked 'queued', in db.ts's row shapes), then
 * goes online and times the engine until the outbox is empty.
 */
async function measureSync(browser, session, rate) {
  const ids = await benchApplications(session);
  const before = new Map();
  for (const id of ids) before.set(id, await versionsOf(session, id));
  const saves = ids.flatMap((applicationId) =>
    STEPS.map((step) => ({
      applicationId,
      step,
      data: stepData(step, applicationId),
      baseVersion: before.get(applicationId)[step] ?? 0,
    })),
  );

  const { context, page, cdp } = await openPhonePage(browser, session, rate);
  // The page's IndexedDB transactions (read-only and read-write) from the `online` event on: the
  // engine's own and those of the screens' live queries it wakes (decision 385).
  await page.addInitScript(() => {
    const w = window;
    w.__idb = null;
    const open = IDBDatabase.prototype.transaction;
    IDBDatabase.prototype.transaction = function (stores, mode, ...rest) {
      if (w.__idb) w.__idb[mode === 'readwrite' ? 'readwrite' : 'readonly'] += 1;
      return open.call(this, stores, mode, ...rest);
    };
    addEventListener('online', () => (w.__idb ??= { readonly: 0, readwrite: 0 }), { capture: true });
    // The saves' answers as they come, and the list's reads of the server (resource timing: costs
    // the page nothing; decision 605).
    w.__answered = 0;
    w.__listReads = 0;
    w.__calls = 0;
    // Saves sent together (POST /batch, decision 702): counted as their call is answered, by its items.
    const send = window.fetch;
    window.fetch = function (input, init) {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      const answer = send.call(this, input, init);
      if (!url.endsWith('/api/batch') || typeof init?.body !== 'string') return answer;
      const items = init.body.split('"idempotencyKey":').length - 1;
      return answer.then((response) => {
        if (w.__idb && response.ok) w.__answered += items;
        return response;
      });
    };
    performance.setResourceTimingBufferSize?.(2000);
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        if (!w.__idb || entry.initiatorType !== 'fetch') continue;
        if (entry.name.includes('/api/applications/update/')) w.__answered += 1;
        if (entry.name.includes('/api/applications/update/') || entry.name.endsWith('/api/batch')) w.__calls += 1;
        else if (new URL(entry.name).pathname === '/api/applications') w.__listReads += 1;
      }
    }).observe({ type: 'resource' });
  });
  await page.goto(`${base}/applications`, { waitUntil: 'networkidle' });
  await page.getByRole('heading', { level: 1, name: 'Applications' }).waitFor();
  // The app's own database must exist first (opening it here would create an empty one).
  for (let i = 0; !(await page.evaluate(async () => (await indexedDB.databases()).some((d) => d.name === 'portal'))); i++) {
    if (i === 100) throw new Error('the app did not open its IndexedDB database');
    await page.waitForTimeout(100);
  }
  await context.setOffline(true);
  await page.evaluate(
    async ({ userId, saves }) => {
      const db = await new Promise((resolve, reject) => {
        const request = indexedDB.open('portal');
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
      const tx = db.transaction(['outbox', 'drafts'], 'readwrite');
      let updatedAt = Date.now();
      for (const { applicationId, step, data, baseVersion } of saves) {
        const key = `application:${applicationId}:${step}`;
        updatedAt += 1;
        tx.objectStore('drafts').put({
          id: `${userId}|${key}`,
          userId,
          key,
          value: data,
          baseVersion,
          updatedAt,
          status: 'queued',
        });
        tx.objectStore('outbox').add({
          id: crypto.randomUUID(),
          userId,
          kind: 'saveStep',
          payload: { applicationId, step, baseVersion, data },
          draftKey: key,
          draftUpdatedAt: updatedAt,
          createdAt: Date.now(),
          attempts: 0,
        });
      }
      await new Promise((resolve, reject) => {
        tx.oncomplete = resolve;
        tx.onerror = () => reject(tx.error);
      });
      db.close();
      window.__onlineAt = null;
      addEventListener('online', () => (window.__onlineAt ??= performance.now()), { capture: true });
    },
    { userId: session.user.id, saves },
  );
  await page.waitForTimeout(500);

  // PROFILE=file.cpuprofile keeps the page's CPU profile of the first slowed sync (Chrome DevTools opens it).
  // The page's main-thread time during the sync (its tasks, and the script in them): with the server
  // alone's time a save, what sets the floor of one call a save (decision 607).
  await cdp.send('Performance.enable');
  const pageTime = async () =>
    Object.fromEntries((await cdp.send('Performance.getMetrics')).metrics.map((metric) => [metric.name, metric.value]));
  const pageBefore = await pageTime();
  const profiling = process.env.PROFILE && rate !== 1 && !profiled;
  if (profiling) {
    profiled = true;
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.start');
  }
  await context.setOffline(false);
  const figures = await page.evaluate(
    async ({ userId, saves }) => {
      const db = await new Promise((resolve, reject) => {
        const request = indexedDB.open('portal');
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
      const count = () =>
        new Promise((resolve, reject) => {
          const request = db.transaction('outbox').objectStore('outbox').index('userId').count(userId);
          request.onsuccess = () => resolve(request.result);
          request.onerror = () => reject(request.error);
        });
      const deadline = performance.now() + 120_000;
      // The outbox is read only once every save has its answer: a read every 20 ms all along would
      // take the page's time from the sync it measures (decision 385).
      while (window.__answered < saves && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      let polls = 1;
      let left = await count();
      while (left > 0 && performance.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        polls += 1;
        left = await count();
      }
      const transactions = window.__idb && { ...window.__idb, readonly: window.__idb.readonly - polls };
      const end = performance.now();
      const results = await new Promise((resolve, reject) => {
        const request = db.transaction('results').objectStore('results').getAll();
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
      db.close();
      return {
        left,
        online: window.__onlineAt !== null,
        totalMs: end - window.__onlineAt,
        results: results.map((r) => r.status),
        transactions,
        listReads: window.__listReads,
        calls: window.__calls,
      };
    },
    { userId: session.user.id, saves: saves.length },
  );
  const pageAfter = await pageTime();
  if (profiling) {
    const { profile } = await cdp.send('Profiler.stop');
    fs.writeFileSync(process.env.PROFILE, JSON.stringify(profile));
  }
  await context.close();
  if (figures.left > 0) throw new Error(`the outbox still holds ${figures.left} saves after 120 s`);
  if (!figures.online) throw new Error('no online event reached the page');
  const refused = figures.results.filter((status) => status !== 'done').length;
  if (refused > 0) throw new Error(`${refused} saves were refused by the server`);

  // Held exactly once: every step one version on from where the run started.
  let held = 0;
  for (const applicationId of ids) {
    const after = await versionsOf(session, applicationId);
    held += STEPS.filter((step) => after[step] === (before.get(applicationId)[step] ?? 0) + 1).length;
  }
  return {
    count: saves.length,
    totalMs: figures.totalMs,
    held,
    transactions: figures.transactions,
    listReads: figures.listReads,
    calls: figures.calls,
    taskMs: (pageAfter.TaskDuration - pageBefore.TaskDuration) * 1000,
    scriptMs: (pageAfter.ScriptDuration - pageBefore.ScriptDuration) * 1000,
  };
}

async function call(session, url, body) {
  const response = await fetch(`${base}${url}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${session.token}` },
    body: JSON.stringify(body),
  });
  const answer = await response.json();
  if (!response.ok) throw new Error(`${url}: ${response.status} ${JSON.stringify(answer)}`);
  return answer;
}

/** The 20 applications every sync run saves (made once). */
async function benchApplications(session) {
  if (!applications) {
    applications = [];
    for (let i = 0; i < APPLICATIONS; i++) applications.push(await createApplication(session));
  }
  return applications;
}

/** The server's version of each step of an application. */
async function versionsOf(session, applicationId) {
  const res = await fetch(`${base}/api/applications/${applicationId}`, { headers: { Authorization: `Bearer ${session.token}` } });
  if (!res.ok) throw new Error(`application ${applicationId}: ${res.status}`);
  return (await res.json()).journeyVersions;
}

async function createApplication(session) {
  emails += 1;
  const personal = journeys.validPersonal(`bench.${emails}.${Date.now()}@example.test`, { lastName: `Bench${emails}` });
  const { id } = await call(session, '/api/applications/create', { journeyData: { personal } });
  personalOf.set(id, personal);
  return id;
}

async function saveStep(session, applicationId, step, baseVersion) {
  await call(session, `/api/applications/update/${step}`, {
    applicationId,
    baseVersion,
    journeyData: { [step]: stepData(step, applicationId) },
  });
}

/** The one journey fixture's answers; each application's differ a little. */
function stepData(step, n) {
  switch (step) {
    case 'personal':
      return { ...personalOf.get(n), contactNumber: `07700 9${String(n % 100000).padStart(5, '0')}` };
    case 'case':
      return { ...journeys.validSteps.case, caseRef: `BENCH-${n}` };
    case 'financial':
      return { ...journeys.validSteps.financial, estimationOfSettlementAmount: 300000 + n };
    case 'client':
    case 'asset':
    case 'independent':
      return { ...journeys.validSteps[step] };
  }
  throw new Error(step);
}

function builtWithDraftMeasure(dir) {
  const assets = path.join(dir, 'assets');
  if (!fs.existsSync(path.join(dir, 'index.html')) || !fs.existsSync(assets)) return false;
  return fs
    .readdirSync(assets)
    .some((file) => file.endsWith('.js') && fs.readFileSync(path.join(assets, file), 'utf8').includes(DRAFT_MEASURE));
}

function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
}

function fmt(ms) {
  return (ms < 10 ? ms.toFixed(1) : String(Math.round(ms))).padStart(7);
}
