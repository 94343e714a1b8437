/**
 * The Dockerfile at the repository root, checked without a container engine (dockerfile-ast
 * parses it as Docker does): its base is the current Node LTS line, the newest the package
 * supports (engines); it installs production dependencies from the lockfile before copying the
 * sources; it copies exactly the package's "files" (what `npm pack` ships), each to the same place.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DockerfileParser } from 'dockerfile-ast';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const PKG = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { files: string[]; engines: { node: string } };
const dockerfile = DockerfileParser.parse(readFileSync(join(ROOT, 'Dockerfile'), 'utf8'));
const instructions = dockerfile.getInstructions().map((i) => ({
  keyword: i.getKeyword(),
  args: i.getArguments().map((a) => a.getValue()),
}));

/** The newest Node major the engines range names (`... || >=24.0.0` → 24). */
const newestMajor = Math.max(...[...PKG.engines.node.matchAll(/(\d+)\.\d+/g)].map((m) => Number(m[1])));

describe('Dockerfile', () => {
  it('builds on one stage whose base is the current LTS line named in engines, slim', () => {
    const froms = dockerfile.getFROMs();
    expect(froms).toHaveLength(1);
    expect(froms[0]!.getImageName()).toBe('node');
    expect(froms[0]!.getImageTag()).toBe(`${newestMajor}-slim`);
    // pinned: the tag says which line, the digest which image
    expect(froms[0]!.getImageDigest()).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(newestMajor).toBeGreaterThanOrEqual(24);
  });

  it('installs production dependencies from the lockfile (npm ci --omit=dev) after copying only the manifest files', () => {
    const ci = instructions.findIndex((i) => i.keyword === 'RUN' && i.args.join(' ').startsWith('npm ci --omit=dev'));
    expect(ci).toBeGreaterThan(0);
    const copiesBefore = instructions.slice(0, ci).filter((i) => i.keyword === 'COPY');
    expect(copiesBefore.map((c) => c.args)).toEqual([['package.json', 'package-lock.json', './']]);
  });

  it('copies exactly the package\'s files, each to the same relative place (no COPY . .)', () => {
    const ci = instructions.findIndex((i) => i.keyword === 'RUN' && i.args.join(' ').startsWith('npm ci'));
    const copied: string[] = [];
    for (const c of instructions.slice(ci + 1).filter((i) => i.keyword === 'COPY')) {
      const sources = c.args.filter((a) => !a.startsWith('--'));
      const dest = sources.pop()!;
      if (sources.length === 1 && sources[0]!.endsWith('/')) expect(dest, sources[0]).toBe(sources[0]);
      else {
        expect(dest, sources.join(' ')).toBe('./');
        for (const s of sources) expect(s.endsWith('/'), `${s}: a directory among several sources would lose its name`).toBe(false);
      }
      copied.push(...sources);
    }
    expect(copied).not.toContain('.');
    expect([...copied].sort()).toEqual([...PKG.files].sort());
  });

  it('puts the CLI on PATH and drops root', () => {
    const runs = instructions.filter((i) => i.keyword === 'RUN').map((i) => i.args.join(' '));
    expect(runs.some((r) => /ln -s \S+\/bin\/hps-conformance\.mjs \/usr\/local\/bin\/hps-conformance/.test(r))).toBe(true);
    expect(instructions.filter((i) => i.keyword === 'USER').at(-1)?.args).toEqual(['node']);
  });

  it('the CLI is the entrypoint (exec form, the installed bin), so `docker run IMAGE run …` runs it; no arguments: its help', () => {
    const entry = dockerfile.getENTRYPOINTs().at(-1)!;
    expect(entry.getArgumentsContent()).toBe('["node", "/opt/hps-conformance/bin/hps-conformance.mjs"]');
    const workdir = instructions.find((i) => i.keyword === 'WORKDIR')!.args[0];
    expect(`${workdir}/bin/hps-conformance.mjs`).toBe('/opt/hps-conformance/bin/hps-conformance.mjs');
    expect(dockerfile.getCMDs().at(-1)!.getArgumentsContent()).toBe('["--help"]');
  });
});
