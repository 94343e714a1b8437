/** The pieces of the nginx run that need no nginx: the missing-tool line, the configuration, the certificates. */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findTool, makeCertificates, missingInfraTools, nginxConfig } from './nginx.ts';

describe('nginx set-up', () => {
  it('says in one line what is missing and how to get it', () => {
    expect(missingInfraTools(() => null)).toBe("nginx and openssl not found on PATH: install Debian's packages (apt-get install nginx openssl); .ci/run does");
    expect(missingInfraTools((t) => (t === 'nginx' ? null : '/usr/bin/openssl'))).toMatch(/^nginx not found on PATH: .*apt-get install nginx\); \.ci\/run does$/);
    expect(missingInfraTools(() => '/bin/x')).toBeNull();
  });

  it('writes a configuration with default buffers, loopback only, every path in its own dir', () => {
    const conf = nginxConfig({ dir: '/tmp/x', port: 4443, upstream: 'http://127.0.0.1:9', cert: '/tmp/x/s.pem', key: '/tmp/x/s.key' });
    expect(conf).toContain('listen 127.0.0.1:4443 ssl;');
    expect(conf).toContain('proxy_pass http://127.0.0.1:9;');
    expect(conf).not.toMatch(/buffer|client_max_body_size|large_client_header/);
    for (const line of conf.split('\n').filter((l) => /(_path|pid|_log) /.test(l))) expect(line, line).toContain('/tmp/x/');
  });

  it.skipIf(findTool('openssl') === null)('makes a server certificate for 127.0.0.1 that its CA verifies', () => {
    const dir = mkdtempSync(join(tmpdir(), 'hps-cert-'));
    try {
      const { ca, cert } = makeCertificates(dir);
      const out = execFileSync('openssl', ['verify', '-CAfile', ca, cert], { encoding: 'utf8', timeout: 20_000 });
      expect(out.trim()).toBe(`${cert}: OK`);
      expect(execFileSync(
        'openssl',
        ['x509', '-in', cert, '-noout', '-ext', 'subjectAltName'],
        { encoding: 'utf8' },
      )).toContain('IP Address:127.0.0.1');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
