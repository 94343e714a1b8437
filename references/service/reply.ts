/** What an operation answers: a status, the exact body bytes, extra headers. */

export interface Reply {
  status: number;
  body: Buffer;
  headers?: Record<string, string>;
}

export function jsonReply(status: number, value: unknown, headers?: Record<string, string>): Reply {
  return { status, body: Buffer.from(JSON.stringify(value), 'utf8'), ...(headers ? { headers } : {}) };
}
