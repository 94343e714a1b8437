/**
 * A structural validator for the Kubernetes objects deploy/kubernetes/ uses, written against
 * the API reference of the fields used (core/v1 Secret, ConfigMap, PersistentVolumeClaim,
 * Container, Volume; batch/v1 Job): types, required fields, enumerations, and no unknown field
 * (a typo such as `completionmode` is an error, as the API server's strict field validation says).
 * Not the full OpenAPI schema (no kubectl or network here): every field outside these shapes fails.
 */
export type Shape =
  | { t: 'string'; enum?: readonly string[]; pattern?: RegExp }
  | { t: 'int'; min?: number }
  | { t: 'bool' }
  | { t: 'map' }
  | { t: 'list'; of: Shape }
  | { t: 'object'; fields: Record<string, Shape>; required?: readonly string[] };

const str = (o: Partial<{ enum: readonly string[]; pattern: RegExp }> = {}): Shape => ({ t: 'string', ...o });
const int = (min = 0): Shape => ({ t: 'int', min });
const obj = (fields: Record<string, Shape>, required: readonly string[] = []): Shape => ({ t: 'object', fields, required });
const list = (of: Shape): Shape => ({ t: 'list', of });
const map: Shape = { t: 'map' };
const DNS = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const QUANTITY = /^\d+(\.\d+)?(m|Ki|Mi|Gi|Ti|k|M|G|T)?$/;

const metadata = obj({ name: str({ pattern: DNS }), namespace: str({ pattern: DNS }), labels: map, annotations: map }, ['name']);
const keyRef = obj({ name: str({ pattern: DNS }), key: str(), optional: { t: 'bool' } }, ['name', 'key']);
const envVar = obj({ name: str({ pattern: /^[A-Za-z_][A-Za-z0-9_]*$/ }), value: str(), valueFrom: obj({ secretKeyRef: keyRef, configMapKeyRef: keyRef, fieldRef: obj({ fieldPath: str() }, ['fieldPath']) }) }, ['name']);
const resources = obj({ requests: map, limits: map });
const container = obj(
  {
    name: str({ pattern: DNS }),
    image: str(),
    command: list(str()),
    args: list(str()),
    env: list(envVar),
    resources,
    volumeMounts: list(obj({ name: str({ pattern: DNS }), mountPath: str({ pattern: /^\// }), readOnly: { t: 'bool' }, subPath: str() }, ['name', 'mountPath'])),
    workingDir: str(),
  },
  ['name', 'image'],
);
const volume = obj({ name: str({ pattern: DNS }), configMap: obj({ name: str({ pattern: DNS }) }, ['name']), secret: obj({ secretName: str({ pattern: DNS }) }, ['secretName']), persistentVolumeClaim: obj({ claimName: str({ pattern: DNS }), readOnly: { t: 'bool' } }, ['claimName']), emptyDir: obj({}) }, ['name']);
const podSpec = obj({ restartPolicy: str({ enum: ['Never', 'OnFailure'] }), containers: list(container), volumes: list(volume), serviceAccountName: str({ pattern: DNS }) }, ['containers', 'restartPolicy']);

export const SHAPES: Record<string, Shape> = {
  'v1/Secret': obj({ apiVersion: str(), kind: str(), metadata, type: str(), stringData: map, data: map }, ['apiVersion', 'kind', 'metadata']),
  'v1/ConfigMap': obj({ apiVersion: str(), kind: str(), metadata, data: map }, ['apiVersion', 'kind', 'metadata']),
  'v1/PersistentVolumeClaim': obj(
    { apiVersion: str(), kind: str(), metadata, spec: obj({ accessModes: list(str({ enum: ['ReadWriteOnce', 'ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOncePod'] })), resources: obj({ requests: map }, ['requests']), storageClassName: str() }, ['accessModes', 'resources']) },
    ['apiVersion', 'kind', 'metadata', 'spec'],
  ),
  'batch/v1/Job': obj(
    {
      apiVersion: str(),
      kind: str(),
      metadata,
      spec: obj(
        { completionMode: str({ enum: ['NonIndexed', 'Indexed'] }), completions: int(1), parallelism: int(0), backoffLimit: int(0), activeDeadlineSeconds: int(1), ttlSecondsAfterFinished: int(0), template: obj({ metadata: obj({ labels: map, annotations: map }), spec: podSpec }, ['spec']) },
        ['template'],
      ),
    },
    ['apiVersion', 'kind', 'metadata', 'spec'],
  ),
};

/** Problems of `value` against `shape`, each "path: what is wrong". */
export function check(value: unknown, shape: Shape, path = ''): string[] {
  const at = path || '(root)';
  switch (shape.t) {
    case 'string':
      if (typeof value !== 'string') return [`${at}: must be a string`];
      if (shape.enum && !shape.enum.includes(value)) return [`${at}: ${JSON.stringify(value)} is not one of ${shape.enum.join(', ')}`];
      if (shape.pattern && !shape.pattern.test(value)) return [`${at}: ${JSON.stringify(value)} does not match ${shape.pattern}`];
      return [];
    case 'int':
      return Number.isInteger(value) && (value as number) >= (shape.min ?? 0) ? [] : [`${at}: must be an integer ≥ ${shape.min ?? 0}`];
    case 'bool':
      return typeof value === 'boolean' ? [] : [`${at}: must be a boolean`];
    case 'map':
      if (!value || typeof value !== 'object' || Array.isArray(value)) return [`${at}: must be a map`];
      return Object.entries(value).flatMap(([k, v]) => (typeof v === 'string' ? [] : [`${at}.${k}: must be a string (quote numbers)`]));
    case 'list':
      return Array.isArray(value) ? value.flatMap((v, i) => check(v, shape.of, `${path}[${i}]`)) : [`${at}: must be a list`];
    case 'object': {
      if (!value || typeof value !== 'object' || Array.isArray(value)) return [`${at}: must be an object`];
      const o = value as Record<string, unknown>;
      const out = (shape.required ?? []).filter((k) => o[k] === undefined).map((k) => `${at}: ${k} is required`);
      for (const [k, v] of Object.entries(o)) {
        const s = shape.fields[k];
        out.push(...(s ? check(v, s, path ? `${path}.${k}` : k) : [`${at}: unknown field ${k}`]));
      }
      return out;
    }
  }
}

export function quantityOk(q: string): boolean {
  return QUANTITY.test(q);
}
