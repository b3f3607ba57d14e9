import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeLlmRequest {
  authorization: string | undefined;
  body: any;
}

/**
 * A local stand-in for an OpenAI-compatible API: POST /chat/completions with a Bearer key answers
 * `{ choices: [{ message: { content } }] }`, the content made by `reply` from the request's messages. `reply`
 * may also return a number (that HTTP status, no body) or `{ delayMs, content }`.
 */
export async function startFakeLlm(options: {
  apiKey: string;
  reply: (request: {
    model: string;
    criteria: Array<{ index: number; kind: string; text: string }>;
    /** The numbered note sentences the trial matcher's judge sends (decision 097); empty for the criteria reader. */
    sentences: Array<{ id: number; text: string }>;
    system: string;
  }) => string | number | { delayMs: number; content: string };
}) {
  const received: FakeLlmRequest[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const answer = (status: number, body?: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(body === undefined ? '' : JSON.stringify(body));
      };
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') return answer(404, { error: { message: 'Not found' } });
      if (req.headers.authorization !== `Bearer ${options.apiKey}`) return answer(401, { error: { message: 'Incorrect API key provided' } });
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      received.push({ authorization: req.headers.authorization, body });
      const user = body.messages?.find((message: { role: string }) => message.role === 'user');
      const sent = JSON.parse(user?.content ?? '{}');
      const system = body.messages?.find((message: { role: string }) => message.role === 'system')?.content ?? '';
      const result = options.reply({ model: body.model, criteria: sent.criteria ?? [], sentences: sent.sentences ?? [], system });
      if (typeof result === 'number') return answer(result);
      const { delayMs, content } = typeof result === 'string' ? { delayMs: 0, content: result } : result;
      setTimeout(() => {
        if (!res.destroyed)
          answer(200, {
            id: 'chatcmpl-fake',
            object: 'chat.completion',
            model: body.model,
            choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
            usage: { prompt_tokens: 900, completion_tokens: 100, total_tokens: 1000 },
          });
      }, delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
