/**
 * The suite modules' transforms kept on disk (service/harness/main/transform-cache.ts): a module is
 * served from the cache only while its source, id, root, mode and the salt are those it was
 * transformed with; a damaged entry, a module under node_modules or a cache that cannot be written
 * falls back to the transform, never to wrong code. And a real suite session uses it: a second
 * session transforms nothing, an edited module is transformed again.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cacheTransforms, transformCacheDir, transformSalt, type TransformingServer } from '../../service/harness/main/transform-cache.ts';
import { PACKAGE_ROOT } from '../../core/package-root.ts';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function scratch(): { root: string; dir: string; write: (rel: string, text: string) => string } {
  const root = mkdtempSync(join(tmpdir(), 'hps-transform-cache-'));
  dirs.push(root);
  return {
    root,
    dir: join(root, 'node_modules', '.cache', 'hps-conformance', 'vite-node'),
    write: (rel, text) => {
      const file = join(root, rel);
      mkdirSync(join(file, '..'), { recursive: true });
      writeFileSync(file, text);
      return file;
    },
  };
}

/** A stand-in for vite-node's server: "transforms" a file to its source upper-cased, and counts. */
function fakeServer(): TransformingServer & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    async _transformRequest(id: string, filepath: string, mode: string) {
      calls.push(`${mode} ${id}`);
      return { code: `/* ${mode} */ ${readFileSync(filepath, 'utf8').toUpperCase()}`, map: { mappings: '' } };
    },
  };
}

/** A fresh wrapper over a fresh server (a new run's process) on the same cache. */
function session(s: ReturnType<typeof scratch>, salt = 'salt-1') {
  const server = fakeServer();
  const stats = cacheTransforms(server, { root: s.root, dir: s.dir, salt });
  return { server, stats, fetch: (id: string, mode = 'ssr') => server._transformRequest(id, join(s.root, id), mode) };
}

describe('the transform cache', () => {
  it('a second run reads what the first transformed; an edit, another mode, another salt transform anew', async () => {
    const s = scratch();
    const file = s.write('suites/a.rules.ts', 'export const a = 1;');
    const first = session(s);
    expect((await first.fetch('suites/a.rules.ts'))?.code).toBe('/* ssr */ EXPORT CONST A = 1;');
    expect(first.stats).toEqual({ hits: 0, misses: 1, writes: 1 });

    const second = session(s);
    expect(await second.fetch('suites/a.rules.ts')).toEqual({ code: '/* ssr */ EXPORT CONST A = 1;' });
    expect(second.server.calls).toEqual([]);
    expect(second.stats).toEqual({ hits: 1, misses: 0, writes: 0 });

    writeFileSync(file, 'export const a = 2;');
    const edited = session(s);
    expect((await edited.fetch('suites/a.rules.ts'))?.code).toBe('/* ssr */ EXPORT CONST A = 2;');
    expect(edited.server.calls).toEqual(['ssr suites/a.rules.ts']);
    // One entry per module: the edit replaced it.
    expect(readdirSync(s.dir).filter((f) => f.endsWith('.js'))).toHaveLength(1);

    const web = session(s);
    expect((await web.fetch('suites/a.rules.ts', 'web'))?.code).toBe('/* web */ EXPORT CONST A = 2;');
    expect(web.server.calls).toEqual(['web suites/a.rules.ts']);

    const otherTools = session(s, 'salt-2');
    await otherTools.fetch('suites/a.rules.ts');
    expect(otherTools.server.calls).toEqual(['ssr suites/a.rules.ts']);
  });

  it('a damaged or truncated entry is a miss, never code', async () => {
    const s = scratch();
    s.write('core/b.ts', 'export const b = "b";');
    await session(s).fetch('core/b.ts');
    const [entry] = readdirSync(s.dir).filter((f) => f.endsWith('.js'));
    const path = join(s.dir, entry!);
    const good = readFileSync(path, 'utf8');
    for (const damaged of [good.replace('"B"', '"X"'), good.slice(0, good.length - 3), good.split('\n')[0]!, '']) {
      writeFileSync(path, damaged);
      const again = session(s);
      expect((await again.fetch('core/b.ts'))?.code).toBe('/* ssr */ EXPORT CONST B = "B";');
      expect(again.server.calls).toEqual(['ssr core/b.ts']);
    }
  });

  it('modules outside the root or under node_modules pass through uncached', async () => {
    const s = scratch();
    s.write('node_modules/dep/index.js', 'export default 1;');
    const r = session(s);
    await r.fetch('node_modules/dep/index.js');
    await r.server._transformRequest('/elsewhere.ts', join(s.root, '..', 'elsewhere.ts'), 'ssr').catch(() => undefined);
    expect(r.stats).toEqual({ hits: 0, misses: 0, writes: 0 });
  });

  it('a cache that cannot be written (its directory is a file) still transforms every module', async () => {
    const s = scratch();
    s.write('suites/c.rules.ts', 'c');
    mkdirSync(join(s.dir, '..'), { recursive: true });
    writeFileSync(s.dir, 'not a directory');
    for (let i = 0; i < 2; i++) {
      const r = session(s);
      expect((await r.fetch('suites/c.rules.ts'))?.code).toBe('/* ssr */ C');
      expect(r.stats).toEqual({ hits: 0, misses: 1, writes: 0 });
    }
  });

  it('lives in the package\'s own node_modules, and its salt names the tools that transform', () => {
    const s = scratch();
    expect(transformCacheDir(s.root)).toBeUndefined();
    mkdirSync(join(s.root, 'node_modules'));
    expect(transformCacheDir(s.root)).toBe(s.dir);
    const salt = transformSalt(PACKAGE_ROOT);
    expect(salt).toMatch(/\|vite@\d+\.\d+\.\d+\|vite-node@\d+\.\d+\.\d+\|vitest@3\.\d+\.\d+\|[0-9a-f]{64}$/);
    expect(transformSalt(s.root)).toMatch(/\|vite@\?\|vite-node@\?\|vitest@\?\|$/);
  });
});
