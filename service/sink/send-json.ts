import type { ServerResponse } from 'node:http';

/** Statuses that carry no body. */
const NO_BODY = new Set([204, 205, 304]);

/** Answers `status` with `body` as JSON (or no body where HTTP forbids one). Never throws. */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string | number> = {},
): void {
  if (res.headersSent || res.destroyed) return;
  try {
    if (NO_BODY.has(status)) {
      res.writeHead(status, headers);
      res.end();
      return;
    }
    const text = JSON.stringify(body);
    res.writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(text),
      ...headers,
    });
    res.end(text);
  } catch {
    res.destroy();
  }
}
