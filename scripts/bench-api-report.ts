/**
 * The API benchmark's printout (scripts/bench-api.ts): a line per call as it is measured, and at the
 * end one Markdown table for docs/benchmarks.md, a column per database and phase, with each goal of
 * the 100,000 phase marked met or not met.
 */
import { flagOf, limit, type Measured } from './bench-api-load';

export interface Row extends Measured {
  name: string;
}

export interface Section {
  database: 'postgres' | 'pglite';
  phase: 'demo' | 'grown';
  title: string;
  bare: Measured;
  rows: Row[];
  rss: number;
}

export const BARE = 'bare Fastify route';

/**
 * The goals at 100,000 applications, 20,000 loans and 100,000 drawdowns under 50 connections: every
 * list, overview and search at p99 ≤ 100 ms on PostgreSQL and ≤ 250 ms embedded; the staff
 * applications list at ≥ 10 % of the bare route on PostgreSQL and ≥ 3 % embedded.
 */
export function goalsOf(name: string, database: Section['database']): { p99?: number; share?: number } {
  const pg = database === 'postgres';
  return {
    ...(/list|overview|search/.test(name) ? { p99: pg ? 100 : 250 } : {}),
    ...(name === 'applications list (staff)' ? { share: pg ? 10 : 3 } : {}),
  };
}

const whole = (n: number) => Math.round(n).toLocaleString('en-GB');
const ms = (n: number) => (Number.isNaN(n) ? '–' : n < 10 ? n.toFixed(1) : whole(n));

function answers(m: Measured): string {
  const codes = Object.entries(m.statuses).map(([code, n]) => `${code}×${n}`);
  if (m.errors > 0) codes.push(`no answer×${m.errors}`);
  return codes.join(' ');
}

export function printHeader(title: string): void {
  console.log(`\n${title}`);
  console.log(
    'call                                          req/s   of bare    p50 ms    p99 ms  CPU: generator server idle  limit         answers',
  );
}

export function printLine(name: string, m: Measured, bare: Measured): void {
  const flag = flagOf(m) ? `  !! ${flagOf(m)}` : '';
  console.log(
    `${name.padEnd(44)} ${m.rps.toFixed(0).padStart(6)}  ${((100 * m.rps) / bare.rps).toFixed(1).padStart(6)} %  ${m.p50.toFixed(1).padStart(8)}  ${m.p99.toFixed(1).padStart(8)}  ${`${m.generatorCpu.toFixed(0)} %`.padStart(14)} ${`${m.serverCpu.toFixed(0)} %`.padStart(6)} ${`${m.machineIdle.toFixed(0)} %`.padStart(4)}  ${limit(m).padEnd(12)}  ${answers(m)}${flag}`,
  );
}

function cell(section: Section, row: Row | undefined): string {
  if (!row) return '';
  const share = (100 * row.rps) / section.bare.rps;
  let text = `${whole(row.rps)} · ${share.toFixed(1)} % · ${ms(row.p50)} / ${ms(row.p99)}`;
  const flag = flagOf(row);
  if (flag) text += ` · **${flag}${row.requests > 0 ? `: ${answers(row)}` : ''}**`;
  if (section.phase !== 'grown') return text;
  const goals = goalsOf(row.name, section.database);
  const marks: string[] = [];
  if (goals.p99 !== undefined) marks.push(row.p99 <= goals.p99 ? 'p99 met' : 'p99 not met');
  if (goals.share !== undefined) marks.push(share >= goals.share ? 'share met' : 'share not met');
  return marks.length > 0 ? `${text} · ${marks.join(', ')}` : text;
}

function goalText(name: string): string {
  const pg = goalsOf(name, 'postgres');
  const embedded = goalsOf(name, 'pglite');
  const parts: string[] = [];
  if (pg.p99 !== undefined) parts.push(`p99 ≤ ${pg.p99} / ≤ ${embedded.p99} ms`);
  if (pg.share !== undefined) parts.push(`≥ ${pg.share} / ≥ ${embedded.share} % of bare`);
  return parts.join('; ');
}

/** The Markdown table: a row per call, a column per section, the goals (PostgreSQL / embedded) last. */
export function markdownTable(sections: Section[]): string {
  const names = [BARE, ...new Set(sections.flatMap((s) => s.rows.map((r) => r.name)))];
  const header = [
    '50 connections (req/s · % of bare · p50 / p99 ms)',
    ...sections.map((s) => s.title),
    'goal at 100,000 (PostgreSQL / embedded)',
  ];
  const lines = [header, header.map(() => '---')];
  for (const name of names) {
    lines.push([
      name,
      ...sections.map((s) =>
        name === BARE
          ? cell(s, { name, ...s.bare })
          : cell(
              s,
              s.rows.find((r) => r.name === name),
            ),
      ),
      name === BARE ? '' : goalText(name),
    ]);
  }
  return lines.map((cells) => `| ${cells.join(' | ')} |`).join('\n');
}

/** Under the table: the bare route's own figures and what held it, per section. */
export function bareNotes(sections: Section[]): string {
  return sections
    .map(
      (s) =>
        `- ${s.title}: bare route ${whole(s.bare.rps)} req/s, p50 ${ms(s.bare.p50)} / p99 ${ms(s.bare.p99)} ms; generator ${s.bare.generatorCpu.toFixed(0)} % of a core, server ${s.bare.serverCpu.toFixed(0)} %, machine idle ${s.bare.machineIdle.toFixed(0)} % (limit: ${limit(s.bare)}); server memory ${s.rss.toFixed(0)} MB`,
    )
    .join('\n');
}
