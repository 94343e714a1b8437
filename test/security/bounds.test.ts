/**
 * Work bounded whatever comes from outside (issue 31): a target's JSON parsed with a nesting limit,
 * answers validated within a budget, evidence kept as bounded copies, files read with a size cap,
 * directories made without a loop, an empty `--*-env` variable taken as absent.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { jsonDepth, MAX_JSON_DEPTH, MAX_JSON_MEMBERS, parseBoundedJson } from '../../core/bounded-json.ts';
import { boundedValue } from '../../core/bounded-value.ts';
import type { ApiResponse } from '../../core/client.ts';
import { HarnessError } from '../../core/errors.ts';
import { readCappedText } from '../../core/read-capped.ts';
import { makeDirectory } from '../../core/safe-write.ts';
import { bodyShown, keptAnswer, validateAnswer } from '../../core/bounded-validation.ts';
import { Mismatch } from '../../service/harness/worker/expect.ts';
import { profileFromFlags } from '../../cli/target-flags.ts';

const work = mkdtempSync(join(tmpdir(), 'hps-bounds-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const deepText = (n: number) => `${'{"a":['.repeat(n)}1${']}'.repeat(n)}`;
function answer(text: string, status = 200): ApiResponse {
  const p = parseBoundedJson(text);
  return {
    status,
    headers: {},
    text,
    json: p.json,
    ...(p.bound ? { jsonBound: p.bound } : {}),
    exchange: { seq: 1, at: '', durationMs: 0, request: { method: 'GET', path: '/v1/payments', headers: {} } },
  };
}

describe('JSON from a target is parsed with a nesting limit', () => {
  it('measures depth outside strings only, and stops early past the limit', () => {
    expect(jsonDepth('{"a":"[[[[{{{{","b":[1,{"c":2}]}')).toBe(3);
    expect(jsonDepth('"\\"["')).toBe(0);
    expect(jsonDepth(deepText(10_000), 300)).toBe(301);
  });
  it(`parses ${MAX_JSON_DEPTH} levels; deeper is not parsed and the bound is named`, () => {
    expect(parseBoundedJson(`${'['.repeat(MAX_JSON_DEPTH)}${']'.repeat(MAX_JSON_DEPTH)}`).json).toBeDefined();
    const deep = parseBoundedJson(deepText(20_000));
    expect(deep.json).toBeUndefined();
    expect(deep.bound).toMatch(/nested deeper than 256 levels/);
    expect(parseBoundedJson('not json')).toEqual({ json: undefined });
  });
  it(`parses ${MAX_JSON_MEMBERS} members of an object or items of an array; more are not parsed and the bound is named`, () => {
    const items = (n: number) => `{"data":[${Array(n).fill('{"s":"a,b,[c]"}').join(',')}]}`;
    expect((parseBoundedJson(items(MAX_JSON_MEMBERS)).json as { data: unknown[] }).data).toHaveLength(MAX_JSON_MEMBERS);
    const list = parseBoundedJson(items(MAX_JSON_MEMBERS + 1));
    expect(list.json).toBeUndefined();
    expect(list.bound).toMatch(/an array of more than 10000 items \(the suite's JSON width bound\): not parsed/);
    const wide = parseBoundedJson(`{${Array.from({ length: 150_000 }, (_, i) => `"k${i}":${i}`).join(',')}}`);
    expect(wide.bound).toMatch(/an object of more than 10000 members/);
    // Commas inside strings, escaped quotes and backslashes are not members.
    expect(parseBoundedJson(`{"a":"${',\\"'.repeat(20_000)}","b":"\\\\"}`).json).toBeDefined();
  });
});

describe('answers are validated within a budget', () => {
  it('a body past the nesting bound fails the schema with the bound named; a finding keeps its first characters only', () => {
    const res = answer(deepText(20_000), 400);
    const v = validateAnswer('Error', res);
    expect(v.valid).toBe(false);
    expect(v.errors[0]).toMatch(/nested deeper than 256 levels/);
    expect(String(bodyShown(res)).length).toBeLessThan(600);
  });
  it('a list page over the spec\'s 100 items is cut to 100 and fails, saying so; a large answer is validated to its first error', () => {
    const item = { id: 'x', what: 'not a payment' };
    const res = answer(JSON.stringify({ object: 'list', has_more: false, data: Array(5_000).fill(item) }));
    const v = validateAnswer('PaymentList', res);
    expect(v.valid).toBe(false);
    expect(v.errors[0]).toMatch(/5000 items, more than the spec's largest page/);
    expect(v.errors.length).toBeLessThan(20);
    expect(String(bodyShown(res))).toMatch(/… \(\d+ chars\)$/);
  });
  it('a large answer not parsed is kept as its start and length, and judged the same; a parsed or small one is kept whole', () => {
    const big = answer(`{"data":[${Array(200_000).fill('{"id":"x"}').join(',')}]}`);
    const kept = keptAnswer(big);
    expect(kept.text.length).toBeLessThan(70_000);
    expect(kept.textChars).toBe(big.text.length);
    expect(bodyShown(kept)).toBe(bodyShown(big));
    expect(validateAnswer('PaymentList', kept)).toEqual(validateAnswer('PaymentList', big));
    const page = answer(JSON.stringify({ object: 'list', has_more: false, data: Array(5_000).fill({ id: 'x' }) }));
    expect(keptAnswer(page)).toBe(page);
    const small = answer('not json');
    expect(keptAnswer(small)).toBe(small);
  });
  it('a Mismatch keeps a bounded copy of a huge actual value, the cut named; a small one unchanged', () => {
    const huge = { data: Array.from({ length: 200_000 }, (_, i) => ({ i })), note: 'x'.repeat(100_000) };
    const m = new Mismatch('m', 1, huge);
    const kept = JSON.stringify(m.actual);
    expect(kept.length).toBeLessThan(100_000);
    expect(kept).toMatch(/more items not kept/);
    const small = { status: 200, items: 3 };
    expect(boundedValue(small)).toBe(small);
    // A value holding a string long enough to be a slice of an answer: a copy of its own, equal.
    const quoting = { status: 200, body: 'x'.repeat(8_000_000).slice(0, 200) };
    expect(boundedValue(quoting)).not.toBe(quoting);
    expect(boundedValue(quoting)).toEqual(quoting);
    const exotic = { expected: /^a/, body: 'y'.repeat(100) };
    expect(boundedValue(exotic)).toBe(exotic);
  });
});

describe('files the tool is given are read with a size cap', () => {
  it('reads a small file, refuses a larger one and an endless device in one line (exit 2)', () => {
    const f = join(work, 'small.json');
    writeFileSync(f, '{"ok":true}');
    expect(readCappedText(f, 100, 'profile')).toBe('{"ok":true}');
    for (const [path, re] of [
      [f, /larger than the 5-byte cap/],
      ['/dev/zero', /larger than the 1024-byte cap/],
      [join(work, 'absent'), /cannot read .*ENOENT/],
    ] as const) {
      let err: unknown;
      try {
        readCappedText(path, path === f ? 5 : 1024, 'profile', 'HPS_ERR_PROFILE');
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(HarnessError);
      expect((err as HarnessError).exitCode).toBe(2);
      expect((err as Error).message).toMatch(re);
      expect((err as Error).message.split('\n')).toHaveLength(1);
    }
  });
});

describe('a report directory is made trying each component once', () => {
  it('makes nested directories, accepts existing ones, and fails at once where Node\'s recursive mkdir loops (/proc/self/…)', () => {
    const d = join(work, 'a', 'b', 'c');
    makeDirectory(d);
    makeDirectory(d);
    expect(() => makeDirectory(join(work, 'small.json', 'x'))).toThrow(/ENOTDIR|EEXIST/);
    expect(() => makeDirectory('/proc/self/hps-no-such-dir/x')).toThrow(/ENOENT|EACCES|EPERM/);
  });
});

describe('an empty variable named by a --*-env option is absent', () => {
  it('an empty Live or other key variable is left out with a note; an empty Test key variable is named', () => {
    const notes: string[] = [];
    const t = profileFromFlags(
      { 'base-url': 'http://127.0.0.1:4010', 'key-env': 'K', 'live-key-env': 'L', 'other-key-env': 'O' },
      { K: 'pt_test_sk_abcd1234', L: '', O: '' },
      (l) => notes.push(l),
    );
    expect(t!.profile.keys).toEqual({ test: 'pt_test_sk_abcd1234' });
    expect(notes).toEqual([
      expect.stringMatching(/--live-key-env L: the variable is empty, taken as unset/),
      expect.stringMatching(/--other-key-env O: the variable is empty/),
    ]);
    expect(() => profileFromFlags(
      { 'base-url': 'http://127.0.0.1:4010', 'key-env': 'K' },
      { K: '' },
      () => {},
    )).toThrow(/--key-env K: the variable is empty/);
  });
});
