import { CriteriaReaderError } from './criteria-reader-error';

/** How the product reaches an OpenAI-compatible chat-completions API (decision 024). */
export interface LlmConfig {
  baseUrl: string;
  apiKey?: string;
  model: string;
  timeoutMs: number;
}

/**
 * One JSON-mode chat completion (`POST {baseUrl}/chat/completions`, temperature 0): the answer's content parsed
 * as JSON, and the tokens the server reported (0 when it reports none). Errors are CriteriaReaderErrors:
 * timeout, http (unreachable or not 2xx), format (no JSON content).
 */
export async function chatJson(
  config: LlmConfig,
  fetchImpl: typeof fetch,
  messages: { system: string; user: string },
): Promise<{ content: unknown; totalTokens: number }> {
  let response: Response;
  try {
    response = await fetchImpl(`${config.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(config.apiKey ? { authorization: `Bearer ${config.apiKey}` } : {}) },
      body: JSON.stringify({
        model: config.model,
        temperature: 0,
        response_format: { type: 'json_object' },
        messages: [
          { role: 'system', content: messages.system },
          { role: 'user', content: messages.user },
        ],
      }),
      signal: AbortSignal.timeout(config.timeoutMs),
    });
  } catch (error) {
    const timedOut = (error as Error).name === 'TimeoutError' || (error as Error).name === 'AbortError';
    throw new CriteriaReaderError(
      timedOut ? 'The language model did not answer in time' : 'The language model could not be reached',
      timedOut ? 'timeout' : 'http',
    );
  }
  if (!response.ok) throw new CriteriaReaderError(`The language model answered HTTP ${response.status}`, 'http');
  const body = (await response.json().catch(() => null)) as {
    choices?: Array<{ message?: { content?: string } }>;
    usage?: { total_tokens?: unknown };
  } | null;
  // OpenAI-compatible servers report usage.total_tokens; one that does not costs nothing we can count.
  const totalTokens = typeof body?.usage?.total_tokens === 'number' && Number.isFinite(body.usage.total_tokens) ? Math.max(0, body.usage.total_tokens) : 0;
  try {
    return { content: JSON.parse(body?.choices?.[0]?.message?.content ?? ''), totalTokens };
  } catch {
    throw new CriteriaReaderError('The language model did not answer in the expected JSON shape', 'format');
  }
}
