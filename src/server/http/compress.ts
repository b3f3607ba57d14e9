import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import type { MiddlewareHandler } from 'hono';
import { COMPRESSIBLE_CONTENT_TYPE_REGEX } from 'hono/utils/compress';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

type Encoding = 'br' | 'gzip';

/** The best encoding the client accepts, brotli first (q=0 refuses one). */
export function chooseEncoding(acceptEncoding: string | undefined): Encoding | undefined {
  if (!acceptEncoding) return undefined;
  const accepted = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    accepted.set(name, q ? Number(q.slice(2)) || 0 : 1);
  }
  const weight = (name: Encoding) => accepted.get(name) ?? accepted.get('*') ?? 0;
  if (weight('br') > 0 && weight('br') >= weight('gzip')) return 'br';
  if (weight('gzip') > 0) return 'gzip';
  return undefined;
}

async function encode(body: Uint8Array, encoding: Encoding, quality: number): Promise<Buffer> {
  if (encoding === 'br') {
    return brotli(body, {
      params: { [zlib.BROTLI_PARAM_QUALITY]: quality, [zlib.BROTLI_PARAM_SIZE_HINT]: body.byteLength },
    });
  }
  return gzipAsync(body, { level: quality >= 9 ? 9 : 6 });
}

/**
 * Compresses text responses (API JSON, HTML, JS, CSS, SVG) with brotli or gzip, as the client accepts.
 * Node's CompressionStream has no brotli, so zlib does it on the whole body: our text bodies are finite
 * (no event streams). Fingerprinted assets never change, so their compressed bytes are kept (best quality,
 * paid once per file and encoding); everything else is compressed on the fly at a fast quality.
 */
export function compressResponses(options: { threshold?: number; isImmutable?: (path: string) => boolean } = {}): MiddlewareHandler {
  const threshold = options.threshold ?? 1024;
  const cache = new Map<string, Buffer>();
  return async (c, next) => {
    await next();
    const res = c.res;
    const type = res.headers.get('content-type');
    // `res.body` is read last: on @hono/node-server's light response it builds the whole Web Response and sends
    // the body as a stream, which an answer left uncompressed never needs (decision 116).
    if (
      c.req.method === 'HEAD' ||
      res.status === 204 ||
      res.status === 206 ||
      res.status === 304 ||
      res.headers.has('content-encoding') ||
      !type ||
      !COMPRESSIBLE_CONTENT_TYPE_REGEX.test(type) ||
      /no-transform/i.test(res.headers.get('cache-control') ?? '')
    ) {
      return;
    }
    const length = res.headers.get('content-length');
    if (length && Number(length) < threshold) return;

    const vary = res.headers.get('vary');
    const varied = vary && /(^|,)\s*accept-encoding\s*(,|$)/i.test(vary) ? vary : vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding';
    const encoding = chooseEncoding(c.req.header('accept-encoding'));
    if (!encoding) {
      res.headers.set('vary', varied);
      return;
    }
    if (!res.body) return;

    const immutable = options.isImmutable?.(c.req.path) ?? false;
    const key = `${encoding}:${c.req.path}`;
    let compressed = immutable ? cache.get(key) : undefined;
    if (!compressed) {
      const raw = new Uint8Array(await res.arrayBuffer());
      if (raw.byteLength < threshold) {
        c.res = new Response(raw, { status: res.status, statusText: res.statusText, headers: res.headers });
        c.res.headers.set('vary', varied);
        return;
      }
      compressed = await encode(raw, encoding, immutable ? 11 : 4);
      if (immutable && res.status === 200) cache.set(key, compressed);
    } else {
      await res.body.cancel();
    }
    const { status, statusText } = res;
    // Hono copies the previous response's headers onto a new c.res, so the encoding headers are set after.
    c.res = new Response(new Uint8Array(compressed), { status, statusText, headers: res.headers });
    c.res.headers.set('content-encoding', encoding);
    c.res.headers.set('content-length', String(compressed.byteLength));
    c.res.headers.set('vary', varied);
    const etag = c.res.headers.get('etag');
    if (etag && !etag.startsWith('W/')) c.res.headers.set('etag', `W/${etag}`);
  };
}
