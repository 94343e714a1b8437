/**
 * The HTTP-level hostile catalogue (issues 31, 44). Each kind is an answer a broken or malicious
 * service may give inside the client's byte cap and deadline; the suite must stay bounded (time,
 * memory), write its reports, never call it conformant and never leak the key. A target answers
 * in one of the modes of HOSTILE_TARGETS: one kind to every request, every kind in turn, or the
 * reported case (every GET a huge list of non-Payments, everything else 404). Whatever the mode,
 * the preflight's first read with the key gets a valid empty list, so the target looks like the
 * API once and the whole suite runs against it.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

export const ROTATING_KINDS = {
  deep: '200, an object nested 20 000 levels deep',
  wide: '200, one object with 150 000 members',
  'huge-capped': '200, a 7.5 MiB list of items that are not Payments (under the 8 MiB cap)',
  'invalid-utf8': '200, a Payment-like body with bytes that are not UTF-8',
  'key-echo': '500, the caller\'s key in every form: JSON escapes, HTML references, percent, fullwidth, zero-width, base64, base32, hex, rot13, in body values and keys, nested arrays, headers and the status text',
  slow: 'a valid empty list after 1.5 s',
  reset: 'the connection reset before any answer',
} as const;
export type RotatingKind = keyof typeof ROTATING_KINDS;

/** The targets a whole run is bounded against: each kind always, the kinds in turn, the reported case. */
export const HOSTILE_TARGETS = {
  ...(Object.fromEntries(Object.entries(ROTATING_KINDS).map(([k, v]) => [k, `every request: ${v}`])) as Record<RotatingKind, string>),
  rotating: 'each request the next kind in turn',
  'huge-lists': 'every GET: the 7.5 MiB list of non-Payments; every other request: 404 not_found (issue 44)',
} as const;
export type HostileMode = keyof typeof HOSTILE_TARGETS;

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
function base32(s: string): string {
  let bits = '';
  for (const b of Buffer.from(s)) bits += b.toString(2).padStart(8, '0');
  return (bits.match(/.{1,5}/g) ?? []).map((c) => BASE32[parseInt(c.padEnd(5, '0'), 2)]).join('');
}
const rot13 = (s: string) => s.replace(
  /[a-z]/gi,
  (c) => String.fromCharCode(((c.toLowerCase().charCodeAt(0) - 97 + 13) % 26) + (c <= 'Z' ? 65 : 97)),
);

/** The key in every form a reader or a renderer might decode (written independently of core/redact.ts). */
export function keyForms(key: string) {
  return {
    'json-escaped': [...key].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join(''),
    'html-entities': [...key].map((c) => `&#x${c.charCodeAt(0).toString(16)};`).join(''),
    'percent-every-byte': [...Buffer.from(key)].map((b) => `%${b.toString(16).toUpperCase()}`).join(''),
    fullwidth: [...key].map((c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0)).join(''),
    'zero-width-between': [...key].join('\u200b'),
    base64: Buffer.from(key).toString('base64'),
    base32: base32(key),
    hex: Buffer.from(key).toString('hex'),
    rot13: rot13(key),
  } as const satisfies Record<string, string>;
}

function keyEcho(key: string, res: ServerResponse): void {
  const forms = keyForms(key);
  // JSON text written by hand, so the \u escapes stay escapes on the wire.
  const values = Object.entries(forms).map(([k, v]) => `"${k}":"${k === 'json-escaped' ? v : JSON.stringify(v).slice(1, -1)}"`);
  const body = `{"error":{"type":"api_error","code":"internal","message":"auth was ${forms['json-escaped']}","request_id":"req_${Math.random().toString(36).slice(2)}",`
    + `"forms":{${values.join(',')}},"nested":[[[${JSON.stringify(forms.fullwidth)}]]],${JSON.stringify(forms.base32)}:1}}`;
  res.statusMessage = `Bad ${forms.rot13}`;
  res.writeHead(
    500,
    { 'content-type': 'application/json', 'x-echo-b32': forms.base32, 'x-echo-hex': forms.hex, [`x-${forms.hex.slice(0, 60)}`]: '1' },
  ).end(body);
}

function hugeCapped(): string {
  const item = JSON.stringify({ id: 'x', what: 'not a payment', n: 1 });
  const count = Math.floor((7.5 * 1024 * 1024) / (item.length + 1));
  return `{"object":"list","has_more":false,"data":[${Array(count).fill(item).join(',')}]}`;
}

function wide(): string {
  return `{${Array.from({ length: 150_000 }, (_, i) => `"k${i}":${i}`).join(',')}}`;
}

const EMPTY_LIST = '{"object":"list","data":[],"has_more":false}';

export interface RotatingTarget {
  url: string;
  /** Requests answered so far, by kind. */
  served: Record<RotatingKind, number>;
  close(): Promise<void>;
}

const NOT_FOUND = '{"error":{"type":"invalid_request_error","code":"not_found","message":"no such route","request_id":"req_404"}}';

/** The kind the `n`th request gets in `mode` (undefined: the 404 of the reported case). */
function kindFor(mode: HostileMode, kinds: RotatingKind[], n: number, method: string | undefined): RotatingKind | undefined {
  if (mode === 'rotating') return kinds[n % kinds.length]!;
  if (mode === 'huge-lists') return method === 'GET' ? 'huge-capped' : undefined;
  return mode;
}

/** Starts a hostile target on loopback in `mode`; `key` is the Test key the preflight reads with. */
export async function startRotatingHostile(key: string, mode: HostileMode = 'rotating'): Promise<RotatingTarget> {
  const kinds = Object.keys(ROTATING_KINDS) as RotatingKind[];
  const served = Object.fromEntries(kinds.map((k) => [k, 0])) as Record<RotatingKind, number>;
  // Encoded once: the target answers at the speed of a write, whatever the suite does.
  const huge = Buffer.from(hugeCapped());
  const wideBody = Buffer.from(wide());
  const deep = Buffer.from(`${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}`);
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  let n = 0;
  let greeted = false;
  const answer = (req: IncomingMessage, res: ServerResponse): void => {
    const json = (
      status: number,
      body: string | Buffer,
    ): void => void res.writeHead(status, { 'content-type': 'application/json' }).end(body);
    if (req.method === 'GET' && req.url === '/v1/payments?limit=1' && req.headers.authorization === `Bearer ${key}` && !greeted) {
      greeted = true;
      return json(200, EMPTY_LIST); // the preflight: the target looks like the API once
    }
    const kind = kindFor(mode, kinds, n++, req.method);
    if (kind === undefined) return json(404, NOT_FOUND);
    served[kind]++;
    switch (kind) {
      case 'deep': return json(200, deep);
      case 'wide': return json(200, wideBody);
      case 'huge-capped': return json(200, huge);
      case 'invalid-utf8': return json(
        200,
        Buffer.concat([Buffer.from('{"id":"pay_'), Buffer.from([0xff, 0xfe, 0xc3, 0x28]), Buffer.from('","object":"payment"}')]),
      );
      case 'key-echo': return keyEcho(String(req.headers.authorization ?? '').split(/\s+/).pop() || key, res);
      case 'slow': {
        const t = setTimeout(() => (timers.delete(t), json(200, EMPTY_LIST)), 1500);
        timers.add(t);
        return;
      }
      case 'reset': return void req.socket.destroy();
    }
  };
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => answer(req, res));
  });
  server.on('connection', (s) => (sockets.add(s), s.on('close', () => sockets.delete(s))));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    served,
    close: async () => {
      for (const t of timers) clearTimeout(t);
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/** Standalone: `npx tsx test/client/rotating-hostile.ts KEY [MODE]` prints the URL and serves until killed. */
if (import.meta.url === `file://${process.argv[1]}`) {
  const mode = (process.argv[3] ?? 'rotating') as HostileMode;
  const t = await startRotatingHostile(process.argv[2] ?? 'pt_test_sk_hostileHostileHostile0001', mode);
  console.log(t.url);
}
