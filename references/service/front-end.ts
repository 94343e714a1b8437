/**
 * What stands in front of the service: the node:http server with the variant's limits and
 * answers (the headerLimit and malformedHttp decisions), and the negative controls planted there
 * (stock infrastructure in front of a conformant service, not bugs of it).
 */
import http from 'node:http';
import type { Socket } from 'node:net';
import { createRequestHandler } from './app.ts';
import type { AppContext } from './context.ts';
import { RAISED_MAX_HEADER_SIZE, type Decisions } from './decisions.ts';
import { ApiError, errorEnvelope } from './errors.ts';
import { newRequestId } from './ids.ts';
import { checkOf, type PlantingStep, type Step } from './steps.ts';

/** The node:http server in front of the request handler (not yet listening). */
export function frontServer(context: AppContext): http.Server {
  const front = checkOf(FRONT, context.faults)({ decisions: context.decisions, handler: createRequestHandler(context) });
  const server = http.createServer(front.options, front.listener);
  if (front.malformedAnswered) server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => answerMalformed(err, socket));
  return server;
}

interface Front {
  readonly options: http.ServerOptions;
  readonly listener: http.RequestListener;
  /** Whether a request node:http cannot parse is answered with the error envelope (answerMalformed). */
  readonly malformedAnswered: boolean;
}

/** What stands in front of the service: node:http with the variant's limits and answers (headerLimit, malformedHttp decisions). */
const FRONT: Step<{ decisions: Decisions; handler: http.RequestListener }, Front> = {
  name: 'the front end: node:http with the service\'s limits and answers',
  check: ({ decisions, handler }) => ({
    options: decisions.headerLimit === 'raised' ? { maxHeaderSize: RAISED_MAX_HEADER_SIZE } : {},
    listener: handler,
    // malformedHttp decision: 'node-default' leaves node:http's own answers (empty 400, 431...) in place.
    malformedAnswered: decisions.malformedHttp === 'envelope',
  }),
  faulty: {
    'front-node-default-limits': {
      does: 'Malformed or oversized requests are answered the way a plain node:http server does by default (an empty 400 or 431, then the connection closes), not with the error envelope.',
      breaks: [],
      control: { observes: ['AUTH-MALFORMED-KEY', 'ROUTE-EDGE-FORMS'] },
      plant: (input, next) => ({ ...next(input), options: {}, malformedAnswered: false }),
    },
    'front-html-errors': {
      does: 'A front end in the way of nginx\'s defaults: TRACE answered 405 and an Authorization header over 8 KiB answered 400 "Request Header Or Cookie Too Large", both as text/html.',
      breaks: [],
      control: { observes: ['AUTH-MALFORMED-KEY', 'ROUTE-EDGE-FORMS'] },
      plant: (input, next) => {
        const front = next(input);
        return { ...front, listener: nginxDefaults(front.listener) };
      },
    },
  },
};

/** nginx's default answers (front-html-errors): HTML errors for TRACE and an oversized Authorization header. */
function nginxDefaults(handler: http.RequestListener): http.RequestListener {
  const html = (res: http.ServerResponse, status: number, title: string) =>
    res.writeHead(status, { 'content-type': 'text/html' }).end(`<html><head><title>${status} ${title}</title></head><body><center><h1>${status} ${title}</h1></center><hr><center>nginx</center></body></html>\n`);
  return (req, res) => {
    if (req.method === 'TRACE') return html(res, 405, 'Not Allowed');
    if ((req.headers.authorization ?? '').length > 8192) return html(res, 400, 'Request Header Or Cookie Too Large');
    return handler(req, res);
  };
}

/**
 * A request node:http cannot parse (bad request line, header overflow, bad chunking...):
 * answered 400 invalid_request with the error envelope, then the connection is closed.
 */
function answerMalformed(err: NodeJS.ErrnoException, socket: Socket): void {
  const busy = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent === true;
  if (err.code === 'ECONNRESET' || !socket.writable || busy) {
    socket.destroy();
    return;
  }
  const body = JSON.stringify(
    errorEnvelope(new ApiError('invalid_request', { message: 'The HTTP request is malformed.' }), newRequestId()),
  );
  socket.end(
    'HTTP/1.1 400 Bad Request\r\n' +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
  );
}

/** The steps of this file that plant faults (references/service/fault-registry.ts reads their declarations). */
export const FAULTY_STEPS: readonly PlantingStep[] = [FRONT];
