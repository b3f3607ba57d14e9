import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/server/logger';

describe('logger', () => {
  it('never writes names, phone numbers, emails or transcripts, even when handed a whole record', () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const logger = createLogger('info', stream);
    logger.info({ email: 'ann@site.org', candidate: { id: 'c1', firstName: 'Ann', phone: '+16175550123', transcript: 'I have asthma' } }, 'candidate updated');
    const output = lines.join('');
    expect(output).toContain('candidate updated');
    expect(output).toContain('"id":"c1"');
    for (const secret of ['ann@site.org', 'Ann', '+16175550123', 'asthma']) expect(output).not.toContain(secret);
  });
});
