import { describe, expect, it } from 'vitest';
import { statementName, withStatementName } from './postgres-prepared';

describe('named statements on PostgreSQL', () => {
  it('names a parameterised text from its second sighting on, the same name every time', () => {
    const text = `select id from users where id = $1 /* ${Math.random()} */`;
    expect(withStatementName([{ text }, [1]])).toEqual([{ text }, [1]]);
    const [named] = withStatementName([{ text, rowMode: 'array' }, [2]]) as [{ name: string; rowMode: string }];
    expect(named.name).toMatch(/^p_[A-Za-z0-9_-]{32}$/);
    expect(named.rowMode).toBe('array');
    expect(statementName(text)).toBe(named.name);
    expect(withStatementName([text, [3]])).toEqual([{ name: named.name, text }, [3]]);
  });

  it('leaves alone a statement without parameters, one its caller named, and a cursor', () => {
    const text = `select now() /* ${Math.random()} */`;
    for (let i = 0; i < 3; i++) expect(withStatementName([text])).toEqual([text]);
    const own = { name: 'mine', text: 'select $1', values: [1] };
    expect(withStatementName([own])[0]).toBe(own);
    const cursor = { text: 'select $1', values: [1], submit: () => undefined };
    expect(withStatementName([cursor])[0]).toBe(cursor);
  });

  it('reads the values from the config when none are passed beside it', () => {
    const text = `select $1::int /* ${Math.random()} */`;
    withStatementName([{ text, values: [1] }]);
    expect((withStatementName([{ text, values: [1] }])[0] as { name?: string }).name).toBe(statementName(text));
  });

  it('never names a search: its plan must see the pattern to use the prefix and trigram indexes', () => {
    for (const text of [
      'select 1 from clients where lower(surname) like $1',
      'select 1 from clients where similarity(surname, $1) > 0.3',
      'select 1 from clients where name ilike $1',
    ]) {
      statementName(text);
      expect(statementName(text)).toBeUndefined();
    }
  });
});
