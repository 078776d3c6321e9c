import { AsyncLocalStorage } from 'node:async_hooks';
import { describe, expect, it } from 'vitest';
import { createStatementQueue } from './pglite-queue';

/** A request's record, as db/request-work.ts keeps one per request. */
const requests = new AsyncLocalStorage<{ name: string }>();

function queueAndLog() {
  const queue = createStatementQueue({ requestOf: () => requests.getStore() });
  const ran: string[] = [];
  /** One statement: logged when the database takes it, answered a little later. */
  const statement = (label: string) =>
    queue.run(async () => {
      ran.push(label);
      await new Promise((resolve) => setTimeout(resolve, 1));
      return label;
    });
  /** A request of `count` statements, one after the other, as a handler makes them. */
  const request = (name: string, count: number) =>
    requests.run({ name }, async () => {
      for (let i = 1; i <= count; i++) await statement(`${name}${i}`);
      return name;
    });
  return { queue, ran, statement, request };
}

describe('the embedded database statement queue', () => {
  it("takes a begun request's next statement before new requests' first ones", async () => {
    const { ran, request } = queueAndLog();
    const finished: string[] = [];
    await Promise.all(['a', 'b', 'c', 'd'].map((name) => request(name, 3).then((done) => finished.push(done))));
    // First come, first served would run a1 b1 c1 d1 a2 b2 ... and finish every request at the end.
    expect(ran).toEqual(['a1', 'a2', 'a3', 'b1', 'b2', 'b3', 'c1', 'c2', 'c3', 'd1', 'd2', 'd3']);
    expect(finished).toEqual(['a', 'b', 'c', 'd']);
  });

  it('lets a request that arrives later begin after the ones that came before it, not before', async () => {
    const { ran, request } = queueAndLog();
    const first = request('a', 2);
    const second = request('b', 2);
    await new Promise((resolve) => setTimeout(resolve, 0));
    const late = request('c', 1);
    await Promise.all([first, second, late]);
    expect(ran.indexOf('c1')).toBeGreaterThan(ran.indexOf('b1'));
    expect(ran.slice(0, 2)).toEqual(['a1', 'a2']);
  });

  it('takes work outside any request in order with new requests', async () => {
    const { ran, statement, request } = queueAndLog();
    await Promise.all([request('a', 2), statement('job'), request('b', 1)]);
    expect(ran).toEqual(['a1', 'a2', 'job', 'b1']);
  });

  it('runs each statement in its caller context, one at a time', async () => {
    const queue = createStatementQueue({ requestOf: () => requests.getStore() });
    let running = 0;
    let most = 0;
    const seen = await Promise.all(
      ['a', 'b', 'c'].map((name) =>
        requests.run({ name }, () =>
          queue.run(async () => {
            most = Math.max(most, ++running);
            await new Promise((resolve) => setTimeout(resolve, 1));
            running--;
            return requests.getStore()?.name;
          }),
        ),
      ),
    );
    expect(seen).toEqual(['a', 'b', 'c']);
    expect(most).toBe(1);
  });

  it('gives a failure to its caller, goes on with the next and counts what waits', async () => {
    const queue = createStatementQueue({ requestOf: () => undefined });
    const failing = queue.run(async () => {
      throw new Error('refused');
    });
    const thrown = queue.run(() => {
      throw new Error('thrown at once');
    });
    const next = queue.run(async () => 'answered');
    expect(queue.pending).toBe(3);
    await expect(failing).rejects.toThrow('refused');
    await expect(thrown).rejects.toThrow('thrown at once');
    await expect(next).resolves.toBe('answered');
    expect(queue.pending).toBe(0);
  });
});
