/**
 * docs/examples/kubernetes/ checked offline (no kubectl here): every object against the Kubernetes API's
 * schemas and types from the kubernetes-models package (k8s-check.ts), then the references
 * between them and the sharding contract: Indexed Job, completions = parallelism = SHARDS, the
 * shard from JOB_COMPLETION_INDEX, the key from the Secret only, every shard directory merged;
 * the Jobs run the documented image.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { knownKind, schemaProblem, typeProblems } from './k8s-check.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const DIR = join(ROOT, 'docs', 'examples', 'kubernetes');
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
/** The image name the Dockerfile's header, docs/examples/kubernetes/README.md and the CI examples document. */
export const IMAGE = `registry.example/hps-conformance:${VERSION}`;
type K8s = { apiVersion: string; kind: string; metadata: { name?: string; generateName?: string }; [k: string]: any };

function load(): { file: string; doc: K8s }[] {
  return readdirSync(DIR)
    .filter((f) => f.endsWith('.yaml'))
    .flatMap((file) =>
      parseAllDocuments(readFileSync(join(DIR, file), 'utf8')).map((d) => {
        expect(d.errors, file).toEqual([]);
        return { file, doc: d.toJS() as K8s };
      }),
    );
}

const docs = load();
const byKind = (kind: string) => docs.filter((d) => d.doc.kind === kind).map((d) => d.doc);

describe('deploy/kubernetes manifests', () => {
  it('every object is valid against the Kubernetes API schema of its kind and type-checks as its interface (kubernetes-models)', () => {
    expect(docs.length).toBeGreaterThanOrEqual(3); // the profile ConfigMap, the Secret, the shards Job
    for (const { file, doc } of docs) {
      expect(knownKind(doc), `${file}: ${doc.apiVersion}/${doc.kind} is not a kind these manifests may use`).toBe(true);
      expect(schemaProblem(doc), file).toBeUndefined();
    }
    expect(typeProblems(docs.map((d) => d.doc))).toEqual(docs.map(() => []));
  }, 60_000);

  it('the checks catch what they claim to (a misspelt field, a wrong type, an unknown enumeration value, a bad quantity)', () => {
    const job = byKind('Job').find((j) => j.spec.template.spec.containers[0].resources)!;
    const typo = structuredClone(job);
    typo.spec.completionmode = 'Indexed';
    const wrongType = structuredClone(job);
    wrongType.spec.parallelism = '3';
    const badEnum = structuredClone(job);
    badEnum.spec.template.spec.restartPolicy = 'Sometimes';
    const badQuantity = structuredClone(job);
    badQuantity.spec.template.spec.containers[0].resources.requests.cpu = '2 cores';
    expect(typeProblems([typo])[0]!.join('\n')).toMatch(/'"completionmode"' does not exist in type 'IJobSpec'/);
    expect(schemaProblem(wrongType)).toMatch(/spec\/parallelism must be integer/);
    expect(schemaProblem(badEnum)).toMatch(/restartPolicy must be equal to one of the allowed values/);
    expect(schemaProblem(badQuantity)).toMatch(/requests\/cpu must match format "quantity"/);
  }, 60_000);

  it('the Jobs run the documented image', () => {
    for (const job of byKind('Job')) {
      for (const c of job.spec.template.spec.containers) expect(c.image, job.metadata.name).toBe(IMAGE);
    }
  });

  it('references resolve: Secret keys, ConfigMaps, PVCs, volume mounts', () => {
    const secrets = new Map(byKind('Secret').map((s) => [s.metadata.name, Object.keys({ ...s.stringData, ...s.data })]));
    const configMaps = new Set(byKind('ConfigMap').map((c) => c.metadata.name));
    const claims = new Set(byKind('PersistentVolumeClaim').map((c) => c.metadata.name));
    for (const job of byKind('Job')) {
      const pod = job.spec.template.spec;
      const volumes = new Set((pod.volumes ?? []).map((v: any) => v.name));
      for (const v of pod.volumes ?? []) {
        if (v.configMap) expect(configMaps.has(v.configMap.name), v.configMap.name).toBe(true);
        if (v.persistentVolumeClaim) expect(claims.has(v.persistentVolumeClaim.claimName)).toBe(true);
      }
      for (const c of pod.containers) {
        for (const m of c.volumeMounts ?? []) expect(volumes.has(m.name), `${job.metadata.name} mounts ${m.name}`).toBe(true);
        for (const e of c.env ?? []) {
          const ref = e.valueFrom?.secretKeyRef;
          if (ref) expect(secrets.get(ref.name), `${ref.name}/${ref.key}`).toContain(ref.key);
        }
      }
    }
  });

  it('the shards are an Indexed Job (completions = parallelism = SHARDS, shard from JOB_COMPLETION_INDEX), each printing its load.json for merge-shards.sh', () => {
    const shards = byKind('Job').find((j) => j.spec.completionMode === 'Indexed')!;
    expect(shards).toBeDefined();
    const n = shards.spec.completions;
    expect(shards.spec.parallelism).toBe(n);
    const c = shards.spec.template.spec.containers[0];
    const env = Object.fromEntries(c.env.filter((e: any) => e.value !== undefined).map((e: any) => [e.name, e.value]));
    expect(Number(env.SHARDS)).toBe(n);
    const script = [...(c.command ?? []), ...(c.args ?? [])].join(' ');
    expect(script).toMatch(/--shard "\$\(\(JOB_COMPLETION_INDEX \+ 1\)\)\/\$SHARDS"/);
    expect(script).toMatch(/--report "\/results\/shard-\$JOB_COMPLETION_INDEX"/);
    expect(script).toContain(`printf 'hps-load-json %s %s\\n' "$JOB_COMPLETION_INDEX" "$(tr -d '\\n' < "/results/shard-$JOB_COMPLETION_INDEX/load.json")"`);
    // The key comes from the Secret, never as a literal.
    expect(c.env.find((e: any) => e.name === 'HPS_TEST_KEY')?.valueFrom?.secretKeyRef).toBeDefined();
    expect(JSON.stringify(docs.filter((d) => d.doc.kind !== 'Secret'))).not.toMatch(/pt_(test|live)_sk_/);
    // The merge (outside the cluster) takes the Job's own shard count and refuses a missing shard.
    const merge = readFileSync(join(DIR, 'merge-shards.sh'), 'utf8');
    expect(merge).toContain("kubectl get \"job/$job\" -o jsonpath='{.spec.completions}'");
    expect(merge).toContain('"hps-load-json "*)');
    expect(merge).toMatch(/load merge .*"\$\{dirs\[@\]\}"/);
  });

  it('policy: ReadWriteOnce-friendly, writable by the image\'s user, unique per run (issue 32)', () => {
    expect(docs.map(({ doc }) => policyProblems(doc)).flat()).toEqual([]);
    // and the policy catches each thing it names
    const job = byKind('Job')[0]!;
    const named = structuredClone(job);
    named.metadata = { name: 'hps-load-shards' };
    const shared = structuredClone(job);
    shared.spec.template.spec.volumes.push({ name: 'r', persistentVolumeClaim: { claimName: 'hps-load-results' } });
    const noFsGroup = structuredClone(job);
    delete noFsGroup.spec.template.spec.securityContext.fsGroup;
    const fixedRun = structuredClone(job);
    fixedRun.spec.template.spec.containers[0].env.find((e: any) => e.name === 'RUN_ID').value = 'nightly';
    delete fixedRun.spec.template.spec.containers[0].env.find((e: any) => e.name === 'RUN_ID').valueFrom;
    const rwx = { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'x' }, spec: { accessModes: ['ReadWriteMany'] } };
    expect(policyProblems(named).join('\n')).toMatch(/generateName/);
    expect(policyProblems(shared).join('\n')).toMatch(/shared volume/);
    expect(policyProblems(noFsGroup).join('\n')).toMatch(/fsGroup/);
    expect(policyProblems(fixedRun).join('\n')).toMatch(/RUN_ID/);
    expect(policyProblems(rwx).join('\n')).toMatch(/ReadWriteMany/);
  });
});

/** The deployment policy of issue 32, one line per field that breaks it. */
function policyProblems(doc: K8s): string[] {
  const out: string[] = [];
  if (doc.kind === 'PersistentVolumeClaim' && doc.spec?.accessModes?.includes('ReadWriteMany')) out.push(`${doc.metadata.name}: ReadWriteMany, which the default storage classes of the large clouds do not offer`);
  if (doc.kind !== 'Job') return out;
  const where = doc.metadata.generateName ?? doc.metadata.name;
  if (!doc.metadata.generateName || doc.metadata.name) out.push(`${where}: a fixed name (use metadata.generateName: a rerun needs no delete)`);
  const pod = doc.spec.template.spec;
  if ((pod.volumes ?? []).some((v: any) => v.persistentVolumeClaim)) out.push(`${where}: a shared volume (a PersistentVolumeClaim) between pods: not ReadWriteOnce-friendly`);
  const sc = pod.securityContext ?? {};
  if (sc.fsGroup === undefined || sc.fsGroup !== sc.runAsGroup || sc.runAsNonRoot !== true) out.push(`${where}: securityContext needs runAsNonRoot and fsGroup = runAsGroup (volumes writable by the image's user)`);
  for (const c of pod.containers) {
    const runId = (c.env ?? []).find((e: any) => e.name === 'RUN_ID');
    if (runId?.valueFrom?.fieldRef?.fieldPath !== "metadata.labels['batch.kubernetes.io/controller-uid']") out.push(`${where}/${c.name}: RUN_ID must be the Job's uid (downward API), new for every run`);
  }
  return out;
}
