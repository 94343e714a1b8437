/**
 * "Copy as curl": a shell command that replays one recorded exchange without this tool. Exchanges
 * are redacted at the source, so the key is never here; Authorization becomes `Bearer $HPS_KEY`
 * and the note says which key (by its redacted form) to put in HPS_KEY.
 */
import type { Exchange } from '../../catalogue/report/model.ts';

/** Headers curl computes itself, or that only describe the recorded connection. */
const SKIP = new Set(['content-length', 'host', 'connection', 'transfer-encoding', 'keep-alive']);
/** A redacted key as core/redact.ts writes it: prefix, ellipsis, last 4. */
const REDACTED_KEY = /(?:pt_(?:test|live)_sk_|whsec_)?…[A-Za-z0-9_-]{0,4}/;

/** POSIX single-quoting: safe for any byte but NUL. */
export function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** Double-quoting that keeps `$HPS_KEY` live and everything else literal. */
function dq(s: string): string {
  return `"${s.replace(/[\\"`$]/g, (c) => `\\${c}`).replace(/\\\$HPS_KEY/g, '$HPS_KEY')}"`;
}

export interface Curl {
  command: string;
  /** Which redacted key HPS_KEY must hold, or why the command cannot reproduce the exchange exactly. */
  notes: string[];
}

export function curlOf(x: Exchange, baseUrl: string): Curl {
  const notes: string[] = [];
  const parts = ['curl', '-sS', '-i', '-X', shellQuote(x.request.method), shellQuote(baseUrl.replace(/\/+$/, '') + x.request.path)];
  for (const [name, value] of Object.entries(x.request.headers)) {
    if (SKIP.has(name.toLowerCase())) continue;
    if (name.toLowerCase() === 'authorization' && REDACTED_KEY.test(value)) {
      const key = REDACTED_KEY.exec(value)![0];
      const scheme = /^(\S+)\s+/.exec(value)?.[1] ?? 'Bearer';
      const shape = scheme === 'Bearer' && value.replace(/^\S+\s+/, '') === key ? 'Bearer $HPS_KEY' : value.replace(key, '$HPS_KEY');
      parts.push('-H', dq(`Authorization: ${shape}`));
      notes.push(`HPS_KEY: the key shown as ${key}`);
      continue;
    }
    if (/…/.test(value)) notes.push(`header ${name} was redacted in the report; put the real value in its place`);
    if (/[\r\n\0]/.test(value)) notes.push(`header ${name} holds a line break or NUL, which curl will not send as recorded`);
    parts.push('-H', shellQuote(`${name}: ${value}`));
  }
  if (x.request.body !== undefined) {
    parts.push('--data-binary', shellQuote(x.request.body));
    if (/…\s*\(\d+ chars\)\s*$/.test(x.request.body)) notes.push('the body was shortened in the report; the command sends the shortened ' +
      'body');
  }
  const outside = (x as Exchange & { outsideHttp?: string }).outsideHttp;
  if (outside) notes.push(`this probe stepped outside ordinary HTTP (${outside}); curl may not send it byte for byte`);
  return { command: parts.join(' '), notes };
}
