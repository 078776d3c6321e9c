import fs from 'node:fs';
import { parse } from 'yaml';
import { escapeHtml } from '../html/escape-html';

/**
 * The contract as a browsable reference (GET /api/docs): one static HTML page rendered on the
 * server from openapi.yaml, with no script and nothing from another origin, so it keeps the
 * portal's Content-Security-Policy (docs/decisions.md: 316). Operations are grouped by tag, each
 * with who may call it, its parameters, its request body and its answers; schemas are listed
 * once at the end and linked by name wherever they are used.
 */
export function renderReferencePage(contractFile: string, options: { includeDevOnly: boolean }): string {
  const doc = parse(fs.readFileSync(contractFile, 'utf8')) as Json;
  return new ReferencePage(doc, options.includeDevOnly).render();
}

type Json = Record<string, unknown>;
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

interface Entry {
  method: (typeof METHODS)[number];
  path: string;
  op: Json;
  shared: unknown[];
}

class ReferencePage {
  constructor(
    private readonly doc: Json,
    private readonly includeDevOnly: boolean,
  ) {}

  render(): string {
    const info = (this.doc.info ?? {}) as Json;
    const title = String(info.title ?? 'API');
    const groups = this.groups();
    const schemas = Object.entries(((this.doc.components as Json | undefined)?.schemas ?? {}) as Record<string, Json>);
    const toc = groups
      .map(
        ({ tag, entries }) =>
          `<li><a href="#tag-${anchor(tag)}">${escapeHtml(tag)}</a> <span class="muted">(${entries.length})</span></li>`,
      )
      .join('');
    const sections = groups
      .map(
        ({ tag, description, entries }) =>
          `<section id="tag-${anchor(tag)}"><h2>${escapeHtml(tag)}</h2>${description ? `<p>${text(description)}</p>` : ''}` +
          entries.map((entry) => this.operation(entry)).join('') +
          '</section>',
      )
      .join('');
    const schemaSections = schemas
      .map(
        ([name, schema]) =>
          `<section class="schema" id="schema-${anchor(name)}"><h3>${escapeHtml(name)}</h3>${this.schema(schema, 0)}</section>`,
      )
      .join('');
    const count = groups.reduce((n, g) => n + g.entries.length, 0);
    return `<!doctype html>
<html lang="en-GB"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}: reference</title><link rel="icon" href="/favicon.svg" type="image/svg+xml">
<style>${STYLE}</style></head>
<body><header><h1>${escapeHtml(title)} <span class="muted">${escapeHtml(String(info.version ?? ''))}</span></h1>
${info.description ? paragraphs(String(info.description)) : ''}
<p>Every call is under <code>/api</code> and takes a bearer token (<code>Authorization: Bearer …</code>, from <a href="#op-signIn">signIn</a>) unless marked <strong>public</strong>. ${count} operations. The contract itself: <a href="/api/docs/openapi.yaml">openapi.yaml</a>.</p>
<nav aria-label="Tags"><ul class="toc">${toc}<li><a href="#schemas">schemas</a> <span class="muted">(${schemas.length})</span></li></ul></nav></header>
<main>${sections}<section id="schemas"><h2>Schemas</h2>${schemaSections}</section></main></body></html>
`;
  }

  private groups(): { tag: string; description: string | undefined; entries: Entry[] }[] {
    const declared = ((this.doc.tags as Json[] | undefined) ?? []).map((t) => ({
      tag: String(t.name),
      description: t.description === undefined ? undefined : String(t.description),
    }));
    const byTag = new Map<string, Entry[]>();
    for (const [path, item] of Object.entries((this.doc.paths ?? {}) as Record<string, Json>)) {
      for (const method of METHODS) {
        const op = item[method] as Json | undefined;
        if (!op) continue;
        const tags = (op.tags as string[] | undefined) ?? ['other'];
        const devOnly = op['x-dev-only'] === true || tags.includes('dev');
        if (devOnly && !this.includeDevOnly) continue;
        const tag = tags[0] ?? 'other';
        byTag.set(tag, [...(byTag.get(tag) ?? []), { method, path, op, shared: (item.parameters as unknown[]) ?? [] }]);
      }
    }
    const known = declared.filter((t) => byTag.has(t.tag));
    const others = [...byTag.keys()]
      .filter((tag) => !declared.some((t) => t.tag === tag))
      .map((tag) => ({ tag, description: undefined }));
    return [...known, ...others].map((t) => ({ ...t, entries: byTag.get(t.tag)! }));
  }

  private operation({ method, path, op, shared }: Entry): string {
    const id = String(op.operationId ?? `${method} ${path}`);
    const security = (op.security as unknown[] | undefined) ?? (this.doc.security as unknown[] | undefined) ?? [];
    const who: string[] = [];
    if (security.length === 0) who.push('<strong>public</strong>');
    const roles = (op['x-roles'] as string[] | undefined) ?? [];
    if (roles.length) who.push(`roles: ${roles.map((r) => `<code>${escapeHtml(r)}</code>`).join(', ')} (and root)`);
    const permissions = (op['x-permissions'] as string[] | undefined) ?? [];
    if (permissions.length) who.push(`permissions: ${permissions.map((p) => `<code>${escapeHtml(p)}</code>`).join(', ')}`);
    if (security.length > 0 && !roles.length && !permissions.length) who.push('any signed-in user');
    const parameters = [...shared, ...((op.parameters as unknown[] | undefined) ?? [])].map((p) => this.deref(p) as Json);
    return `<article class="op" id="op-${anchor(id)}">
<h3><span class="method ${method}">${method.toUpperCase()}</span> <code class="path">${escapeHtml(path)}</code></h3>
<p class="id"><code>${escapeHtml(id)}</code>${op.summary ? ` · ${text(String(op.summary))}` : ''}</p>
${op.description ? paragraphs(String(op.description)) : ''}
<p class="who">${who.join(' · ')}</p>
${parameters.length ? this.parameters(parameters) : ''}
${op.requestBody ? this.requestBody(this.deref(op.requestBody) as Json) : ''}
${this.responses((op.responses ?? {}) as Record<string, unknown>)}
</article>`;
  }

  private parameters(parameters: Json[]): string {
    const rows = parameters
      .map(
        (p) =>
          `<tr><td><code>${escapeHtml(String(p.name))}</code>${p.required ? ' <span class="req">required</span>' : ''}</td>` +
          `<td>${escapeHtml(String(p.in))}</td><td>${this.type((p.schema ?? {}) as Json)}</td>` +
          `<td>${p.description ? text(String(p.description)) : ''}</td></tr>`,
      )
      .join('');
    return `<h4>Parameters</h4><table><thead><tr><th>Name</th><th>In</th><th>Type</th><th>Description</th></tr></thead><tbody>${rows}</tbody></table>`;
  }

  private requestBody(body: Json): string {
    return `<h4>Request body${body.required ? '' : ' <span class="muted">(optional)</span>'}</h4>${this.content(body.content as Json | undefined)}`;
  }

  private responses(responses: Record<string, unknown>): string {
    const items = Object.entries(responses)
      .map(([status, raw]) => {
        const ref = refName(raw);
        const response = this.deref(raw) as Json;
        const headers = Object.keys((response.headers ?? {}) as Json);
        return (
          `<li><span class="status s${status[0]}">${escapeHtml(status)}</span> ` +
          `${response.description ? text(String(response.description)) : ''}${ref ? ` <span class="muted">(${escapeHtml(ref)})</span>` : ''}` +
          `${headers.length ? ` <span class="muted">headers: ${headers.map((h) => `<code>${escapeHtml(h)}</code>`).join(', ')}</span>` : ''}` +
          `${response.content ? this.content(response.content as Json) : ''}</li>`
        );
      })
      .join('');
    return `<h4>Responses</h4><ul class="responses">${items}</ul>`;
  }

  private content(content: Json | undefined): string {
    return Object.entries(content ?? {})
      .map(([type, media]) => {
        const schema = (media as Json | undefined)?.schema as Json | undefined;
        const label = `<code class="muted">${escapeHtml(type)}</code>`;
        // A named or simple schema fits on the line; an inline object gets its table below.
        if (!schema) return `<div class="media">${label}</div>`;
        if (!schema.properties) return `<div class="media">${label}: ${this.type(schema)}${this.notes(schema)}</div>`;
        return `<div class="media">${label}${this.schema(schema, 0)}</div>`;
      })
      .join('');
  }

  /** A schema: a link when it is a named one, otherwise its type and, for objects, its fields. */
  private schema(schema: Json, depth: number): string {
    if (typeof schema.$ref === 'string') return `<p>${this.type(schema)}</p>`;
    const notes = this.notes(schema);
    const description = schema.description ? `<p>${text(String(schema.description))}</p>` : '';
    const properties = schema.properties as Record<string, Json> | undefined;
    if (properties && depth < 4) {
      const required = new Set((schema.required as string[] | undefined) ?? []);
      const rows = Object.entries(properties)
        .map(([name, property]) => {
          const nested =
            property.properties || (property.items as Json | undefined)?.properties
              ? this.schema((property.properties ? property : property.items) as Json, depth + 1)
              : property.description
                ? text(String(property.description))
                : '';
          return (
            `<tr><td><code>${escapeHtml(name)}</code>${required.has(name) ? ' <span class="req">required</span>' : ''}</td>` +
            `<td>${this.type(property)}${this.notes(property)}</td><td>${nested}</td></tr>`
          );
        })
        .join('');
      const extra = schema.additionalProperties;
      const more =
        extra && typeof extra === 'object'
          ? `<p class="muted">Other keys: ${this.type(extra as Json)}</p>`
          : extra === false
            ? ''
            : '';
      return `${description}<table class="fields"><thead><tr><th>Field</th><th>Type</th><th>Description</th></tr></thead><tbody>${rows}</tbody></table>${more}`;
    }
    return `${description}<p>${this.type(schema)}${notes}</p>`;
  }

  /** A one-line type: `string (date)`, `integer | null`, `array of Loan`, `one of A, B`. */
  private type(schema: Json): string {
    const ref = refName(schema);
    if (ref) return `<a href="#schema-${anchor(ref)}">${escapeHtml(ref)}</a>`;
    for (const key of ['oneOf', 'anyOf', 'allOf'] as const) {
      const list = schema[key] as Json[] | undefined;
      if (list) {
        const parts = list.map((s) => this.type(s)).join(', ');
        return list.length === 1 && key === 'allOf'
          ? parts
          : `${{ oneOf: 'one of', anyOf: 'any of', allOf: 'all of' }[key]} ${parts}`;
      }
    }
    if (schema.const !== undefined) return `<code>${escapeHtml(JSON.stringify(schema.const))}</code>`;
    const types = Array.isArray(schema.type) ? (schema.type as string[]) : schema.type ? [String(schema.type)] : [];
    const described = types.map((t) => {
      if (t === 'array') return `array of ${this.type((schema.items ?? {}) as Json)}`;
      if (t === 'object' && !schema.properties && schema.additionalProperties && typeof schema.additionalProperties === 'object')
        return `object of ${this.type(schema.additionalProperties as Json)}`;
      return escapeHtml(t);
    });
    const format = schema.format ? ` <span class="muted">(${escapeHtml(String(schema.format))})</span>` : '';
    return (described.join(' | ') || 'any') + format;
  }

  /** Limits and allowed values, briefly. */
  private notes(schema: Json): string {
    const notes: string[] = [];
    if (Array.isArray(schema.enum))
      notes.push(`one of ${schema.enum.map((v) => `<code>${escapeHtml(JSON.stringify(v))}</code>`).join(', ')}`);
    const limits: [string, string][] = [
      ['minimum', '≥'],
      ['maximum', '≤'],
      ['minLength', 'length ≥'],
      ['maxLength', 'length ≤'],
      ['minItems', 'items ≥'],
      ['maxItems', 'items ≤'],
    ];
    for (const [key, label] of limits) if (schema[key] !== undefined) notes.push(`${label} ${escapeHtml(String(schema[key]))}`);
    if (schema.pattern) notes.push(`pattern <code>${escapeHtml(String(schema.pattern))}</code>`);
    if (schema.default !== undefined) notes.push(`default <code>${escapeHtml(JSON.stringify(schema.default))}</code>`);
    return notes.length ? ` <span class="muted">${notes.join('; ')}</span>` : '';
  }

  private deref(node: unknown): unknown {
    let current = node;
    for (let i = 0; i < 10 && current && typeof current === 'object' && typeof (current as Json).$ref === 'string'; i++) {
      const ref = (current as Json).$ref as string;
      let target: unknown = this.doc;
      for (const part of ref.replace(/^#\//, '').split('/')) target = (target as Json | undefined)?.[part];
      current = target;
    }
    return current ?? {};
  }
}

function refName(node: unknown): string | undefined {
  const ref = node && typeof node === 'object' ? (node as Json).$ref : undefined;
  return typeof ref === 'string' ? ref.split('/').pop() : undefined;
}

const anchor = (name: string) => name.replace(/[^A-Za-z0-9_-]/g, '-');

/** Contract prose: escaped, with `code` spans. */
function text(value: string): string {
  return escapeHtml(value).replace(/`([^`]+)`/g, '<code>$1</code>');
}

/** Paragraphs and "- " lists of a description. */
function paragraphs(value: string): string {
  return value
    .trim()
    .split(/\n\s*\n/)
    .map((block) => {
      const lines = block.split('\n');
      if (lines.every((line) => /^\s*- |^\s{2,}\S/.test(line)) && /^\s*- /.test(lines[0]!)) {
        const items = block
          .split(/\n\s*- /)
          .map((item) => item.replace(/^\s*- /, '').replace(/\s*\n\s*/g, ' '))
          .map((item) => `<li>${text(item)}</li>`);
        return `<ul>${items.join('')}</ul>`;
      }
      const [lead, ...rest] = block.split(/\n(?=\s*- )/);
      const list = rest.length ? paragraphs(rest.join('\n')) : '';
      return `<p>${text(lead!.replace(/\s*\n\s*/g, ' '))}</p>${list}`;
    })
    .join('');
}

const STYLE = [
  'body{font-family:system-ui,sans-serif;margin:0 auto;max-width:64rem;padding:1rem;color:#1a1a1a;line-height:1.45}',
  'a{color:#0b3d91}code{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.92em}',
  '.muted{color:#5f6368;font-weight:normal}.toc{display:flex;flex-wrap:wrap;gap:.25rem 1rem;padding:0;list-style:none}',
  'h2{border-bottom:2px solid #0b3d91;padding-bottom:.25rem;margin-top:2.5rem}',
  '.op{border:1px solid #d9dce1;border-radius:8px;padding:.25rem 1rem 1rem;margin:1rem 0}',
  '.op h3{font-size:1.05rem;margin:.75rem 0 .25rem;word-break:break-all}.op h4{margin:1rem 0 .35rem;font-size:.95rem}',
  '.method{display:inline-block;min-width:3.8rem;text-align:center;border-radius:4px;padding:0 .35rem;color:#fff;font-size:.85rem}',
  '.get{background:#1d6f42}.post{background:#0b3d91}.put,.patch{background:#8a5a00}.delete{background:#a50e0e}',
  '.id,.who{margin:.2rem 0}.req{color:#a50e0e;font-size:.8rem}',
  'table{border-collapse:collapse;width:100%;margin:.25rem 0;font-size:.92rem}th,td{text-align:left;vertical-align:top;border-top:1px solid #e6e8eb;padding:.3rem .5rem .3rem 0}',
  'td table{margin:0}.responses{padding-left:1rem}.responses li{margin:.35rem 0}',
  '.status{font-weight:600}.s2{color:#1d6f42}.s4{color:#8a5a00}.s5{color:#a50e0e}.media{margin:.25rem 0 .25rem .5rem}',
  '.schema h3{margin-bottom:.25rem}',
].join('');
