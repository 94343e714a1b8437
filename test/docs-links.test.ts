/**
 * The documentation stands on its own: every markdown link and every path a
 * doc names in backticks points inside the repository at a file that exists,
 * and no file of the repository names a path of the machine it was written on.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseProfile } from '../core/profile.ts';

const ROOT = resolve(import.meta.dirname, '..');
const SKIP_DIRS = new Set(['node_modules', '.git', '.hps']);
/** Outputs of runs, named by the docs but not kept in the repository (the transform cache appears after a first run). */
const GENERATED = [
  /^reports\/(latest|runs|mutation|mutation-auto|load)(\/|$)/, /^\.hps\//, /^(summary|load)\.md$/,
  /^node_modules\/\.cache\/hps-conformance(\/|$)/,
];
const TOP = new Set(readdirSync(ROOT));

function walk(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (SKIP_DIRS.has(name)) continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) {
      if (relative(ROOT, p).split(sep).join('/').match(/^reports\/(latest|runs|mutation|mutation-auto|load)$/)) continue;
      walk(p, out);
    } else out.push(p);
  }
  return out;
}

const files = walk(ROOT);
const markdown = files.filter((f) => f.endsWith('.md'));
const inside = (p: string) => p === ROOT || p.startsWith(ROOT + sep);

/** Problems with one markdown file's links and path references. */
export function linkProblems(file: string, text: string): string[] {
  const problems: string[] = [];
  const here = dirname(file);
  const where = relative(ROOT, file);
  for (const m of text.matchAll(/\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
    const target = m[1]!;
    if (/^(https?:|mailto:|#)/.test(target)) continue;
    const p = resolve(here, decodeURIComponent(target.split('#')[0]!));
    if (!inside(p)) problems.push(`${where}: link ${target} points outside the repository`);
    else if (!existsSync(p)) problems.push(`${where}: link ${target} points at a missing file`);
  }
  for (const m of text.matchAll(/`([^`\s]+)`/g)) {
    const token = m[1]!.replace(/[.,:;)]+$/, '');
    if (/[<>{}*…$|=@]/.test(token) || /^[a-z]+:\/\//.test(token) || token.startsWith('/') || token.startsWith('-')) continue;
    const first = token.split('/')[0]!;
    const relativeRef = token.startsWith('./') || token.startsWith('../');
    if (!relativeRef && !(token.includes('/') && TOP.has(first)) && !token.endsWith('.md')) continue;
    if (GENERATED.some((g) => g.test(token))) continue;
    const candidates = relativeRef ? [resolve(here, token)] : [resolve(here, token), resolve(ROOT, token)];
    if (candidates.every((c) => !inside(c))) problems.push(`${where}: \`${token}\` points outside the repository`);
    else if (!candidates.some((c) => inside(c) && existsSync(c))) problems.push(`${where}: \`${token}\` names a file that does not exist`);
  }
  return problems;
}

describe('documentation links', () => {
  it('finds the repository docs', () => {
    const names = markdown.map((f) => relative(ROOT, f).split(sep).join('/'));
    for (const d of ['README.md', 'docs/profile.md', 'docs/design.md', 'docs/architecture.md']) expect(names).toContain(d);
  });

  it('every markdown link and backticked path points inside the repository at an existing file', () => {
    const problems = markdown.flatMap((f) => linkProblems(f, readFileSync(f, 'utf8')));
    expect(problems).toEqual([]);
  });

  it('the checker itself catches a link outside, a missing file and an absolute path', () => {
    const f = join(ROOT, 'docs', 'x.md');
    expect(linkProblems(f, `see [the format](../../${'shared'}/design/PROFILE.md)`)).toHaveLength(1);
    expect(linkProblems(f, 'see [nothing](nothing-here.md)')[0]).toMatch(/missing file/);
    expect(linkProblems(f, 'see `../../elsewhere/spec.md`')[0]).toMatch(/outside the repository/);
    expect(linkProblems(f, 'see `docs/no-such-page.md` and `service/harness/nope.ts`')).toHaveLength(2);
    expect(linkProblems(f, 'see [profile](profile.md), `design.md`, `service/harness/main/run.ts`, `reports/runs/<id>/`')).toEqual([]);
  });

  it('no file of the repository names a path of this machine or the shared design folder', () => {
    const machine = new RegExp(['/' + 'work/', '/' + 'home/[a-z]', '/' + 'Users/', '\\.\\./' + 'shared/', 'C:\\\\' + 'Users'].join('|'));
    const text = files.filter((f) => /\.(md|ts|mjs|js|json|ya?ml|sh)$|\/run$/.test(f) && !f.endsWith('package-lock.json'));
    const hits = text.filter((f) => machine.test(readFileSync(f, 'utf8'))).map((f) => relative(ROOT, f));
    expect(hits).toEqual([]);
  });

  it('the example profile keeps every secret in ${ENV} and is a valid profile once they are set', () => {
    const text = readFileSync(join(ROOT, 'docs', 'examples', 'profile.json'), 'utf8');
    const raw = JSON.parse(text) as { keys: Record<string, string>; webhooks: { endpoints: Array<{ secret: string }> }; control: { token: string } };
    const secrets = [...Object.values(raw.keys), ...raw.webhooks.endpoints.map((e) => e.secret), raw.control.token];
    for (const s of secrets) expect(s).toMatch(/^\$\{[A-Z0-9_]+\}$/);
    const env: Record<string, string> = {};
    for (const [, name] of text.matchAll(/\$\{([A-Z0-9_]+)\}/g)) {
      env[name!] = name!.startsWith('HPS_WHSEC') ? 'whsec_example' : /LIVE/.test(name!) ? 'pt_live_sk_example1234' : name!.startsWith('HPS_KEY') ? 'pt_test_sk_example1234' : name!.endsWith('URL') ? 'https://sink.example.test' : 'token';
    }
    const p = parseProfile(text, 'docs/examples/profile.json', env);
    expect(Object.keys(p).sort()).toEqual(['$schema', 'base_url', 'control', 'fixtures', 'keys', 'live_receiving', 'probes', 'webhooks']);
    expect(Object.keys(p.keys)).toHaveLength(10);
  });
});
