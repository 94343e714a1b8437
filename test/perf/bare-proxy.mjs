// A bare pass-through proxy for `npm run bench:proxy`, on the validating proxy's runtime: node:http
// in, undici out, the request and the answer buffered and relayed (hop-by-hop headers aside), no
// judging, no HAR. argv[2]: the upstream's base URL; prints its own URL on one line.
import http from 'node:http';
import { request } from 'undici';

const upstream = process.argv[2].replace(/\/+$/, '');
const HOP_BY_HOP = new Set(['host', 'connection', 'keep-alive', 'transfer-encoding', 'content-length', 'proxy-connection', 'upgrade', 'te',
  'trailer']);

function forwardable(headers) {
  const out = {};
  for (const [k, v] of Object.entries(headers)) if (v !== undefined && !HOP_BY_HOP.has(k)) out[k] = v;
  return out;
}

const server = http.createServer(async (req, res) => {
  const chunks = [];
  for await (const c of req) chunks.push(c);
  try {
    const up = await request(`${upstream}${req.url}`, {
      method: req.method,
      headers: forwardable(req.headers),
      body: chunks.length ? Buffer.concat(chunks) : undefined,
    });
    const body = Buffer.from(await up.body.arrayBuffer());
    res.writeHead(up.statusCode, forwardable(up.headers));
    res.end(body);
  } catch {
    req.socket.destroy();
  }
});
server.listen(0, '127.0.0.1', () => console.log(`http://127.0.0.1:${server.address().port}`));
