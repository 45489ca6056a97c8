import { createHash } from 'node:crypto';
import type { RequestHandler } from 'express';
import { escapeHtml } from '../lib/html';

type JsonObject = Record<string, unknown>;
type Operation = {
  operationId: string;
  summary: string;
  description?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  parameters?: { name: string; in: string; required?: boolean; description?: string; schema?: unknown }[];
  requestBody?: { description?: string; content: Record<string, { schema?: unknown }> };
  responses: Record<string, { description: string; content?: Record<string, { schema?: unknown }> }>;
};

const STYLE = `
body{font:16px/1.5 system-ui,sans-serif;margin:0 auto;max-width:60rem;padding:1rem;color:#111;background:#fff}
h1{font-size:1.6rem}h2{border-bottom:2px solid #444;margin-top:2.5rem}h3{font-size:1.05rem;margin-bottom:.25rem}
code,pre{font-family:ui-monospace,monospace;font-size:.9rem}pre{background:#f3f3f3;padding:.5rem;overflow:auto;max-height:24rem}
.method{display:inline-block;min-width:4.5rem;font-weight:700}section{border-top:1px solid #ccc;padding:.5rem 0}
table{border-collapse:collapse}td,th{border:1px solid #bbb;padding:.2rem .5rem;text-align:left;vertical-align:top}
`;
const STYLE_HASH = createHash('sha256').update(STYLE).digest('base64');

function schemaBlock(schema: unknown): string {
  return `<details><summary>Schema</summary><pre>${escapeHtml(JSON.stringify(schema, null, 2))}</pre></details>`;
}

function operationHtml(method: string, path: string, operation: Operation): string {
  const scopes = (operation.security ?? []).flatMap((requirement) => Object.values(requirement).flat());
  const parameters = operation.parameters ?? [];
  const parameterRows = parameters
    .map(
      (parameter) =>
        `<tr><td><code>${escapeHtml(parameter.name)}</code></td><td>${parameter.in}</td><td>${parameter.required ? 'yes' : 'no'}</td><td>${escapeHtml(parameter.description ?? '')}</td></tr>`,
    )
    .join('');
  const body = operation.requestBody
    ? Object.entries(operation.requestBody.content)
        .map(([mediaType, content]) => `<p>Body: <code>${escapeHtml(mediaType)}</code></p>${schemaBlock(content.schema)}`)
        .join('')
    : '';
  const responses = Object.entries(operation.responses)
    .map(([status, response]) => {
      const schema = response.content?.['application/json']?.schema;
      return `<li><strong>${status}</strong> ${escapeHtml(response.description)}${schema && status.startsWith('2') ? schemaBlock(schema) : ''}</li>`;
    })
    .join('');
  return `<section id="${escapeHtml(operation.operationId)}">
<h3><span class="method">${method.toUpperCase()}</span> <code>${escapeHtml(path)}</code></h3>
<p>${escapeHtml(operation.summary)}${scopes.length ? ` Scope: <code>${scopes.map(escapeHtml).join(', ')}</code>.` : ''}</p>
${operation.description ? `<p>${escapeHtml(operation.description)}</p>` : ''}
${parameters.length ? `<table><thead><tr><th>Parameter</th><th>In</th><th>Required</th><th>About</th></tr></thead><tbody>${parameterRows}</tbody></table>` : ''}
${body}<p>Answers:</p><ul>${responses}</ul></section>`;
}

/** The OpenAPI document as one readable page, rendered on the server: no script, no CDN. */
function renderApiDocsPage(document: JsonObject): string {
  const info = document.info as { title: string; version: string; description: string };
  const servers = document.servers as { url: string }[];
  const byTag = new Map<string, string[]>();
  for (const [path, item] of Object.entries(document.paths as Record<string, Record<string, Operation>>)) {
    for (const [method, operation] of Object.entries(item)) {
      const tag = operation.tags?.[0] ?? 'Other';
      byTag.set(tag, [...(byTag.get(tag) ?? []), operationHtml(method, `${servers[0]!.url}${path}`, operation)]);
    }
  }
  const contents = [...byTag.keys()].map((tag) => `<li><a href="#tag-${escapeHtml(tag)}">${escapeHtml(tag)}</a></li>`).join('');
  const sections = [...byTag]
    .map(([tag, operations]) => `<h2 id="tag-${escapeHtml(tag)}">${escapeHtml(tag)}</h2>${operations.join('')}`)
    .join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(info.title)}</title><style>${STYLE}</style></head><body><main>
<h1>${escapeHtml(info.title)} <small>${escapeHtml(info.version)}</small></h1>
<p>${escapeHtml(info.description)}</p>
<p>Machine-readable: <a href="openapi.json"><code>openapi.json</code></a> (OpenAPI 3.1).</p>
<nav aria-label="Contents"><ul>${contents}</ul></nav>${sections}</main></body></html>`;
}

export function apiDocsPage(document: JsonObject): RequestHandler {
  const html = renderApiDocsPage(document);
  return (_req, res) => {
    res.set(
      'Content-Security-Policy',
      `default-src 'none'; style-src 'sha256-${STYLE_HASH}'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'`,
    );
    res.type('html').send(html);
  };
}
