/**
 * Evidence redacted on first read (core/redact-on-read.ts) never shows the unredacted text on any
 * way out: JSON, structured clone (what a worker thread posts to the main thread), spread, entries,
 * the v8 serializer (child processes' advanced serialization).
 */
import { MessageChannel, receiveMessageOnPort } from 'node:worker_threads';
import { serialize, deserialize } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { redactOnRead } from '../../core/redact-on-read.ts';

const SECRET = 'sk_test_51HqLyjWDarjtT1zdp7dcXs0vGX1XhQ';

function recorded(): { status: number; body: string } {
  return redactOnRead({ status: 200 } as { status: number; body: string }, 'body', `{"key":"${SECRET}","n":1}`, [SECRET]);
}

describe('redactOnRead', () => {
  it('reads redacted, and the same text every time', () => {
    const r = recorded();
    expect(r.body).not.toContain(SECRET);
    expect(r.body).toContain('"n":1');
    expect(r.body).toBe(r.body);
  });

  it('leaves redacted on every way out of the process', () => {
    const ways: Array<[string, (x: object) => unknown]> = [
      ['JSON', (x) => JSON.stringify(x)],
      ['structuredClone', (x) => JSON.stringify(structuredClone(x))],
      ['spread', (x) => JSON.stringify({ ...x })],
      ['entries', (x) => JSON.stringify(Object.entries(x))],
      ['v8 serializer', (x) => JSON.stringify(deserialize(serialize(x)))],
      ['MessagePort', (x) => {
        const { port1, port2 } = new MessageChannel();
        port1.postMessage(x);
        const got = receiveMessageOnPort(port2)?.message;
        port1.close();
        return JSON.stringify(got);
      }],
    ];
    for (const [name, out] of ways) {
      const text = String(out({ exchange: { response: recorded() } }));
      expect(text, name).not.toContain(SECRET);
      expect(text, name).toContain('\\"n\\":1');
    }
  });

  it('keeps a value written over it', () => {
    const r = recorded();
    r.body = 'shortened';
    expect(JSON.stringify(r)).toBe('{"status":200,"body":"shortened"}');
  });
});
