import { describe, expect, it } from 'vitest';
import { errorFromResponse } from '../../src/web/lib/api';
import { errorMessage } from '../../src/web/lib/utils';

// What a screen shows for a refused request (issue 32 item 9): the server's sentence, or plain words.
describe('a refused request in plain words', () => {
  it("shows the server's own sentence, without the status line", () => {
    const error = errorFromResponse(409, 'Conflict', { error: { code: 'CONFLICT', message: 'This person already has a call in progress.' } });
    expect(errorMessage(error)).toBe('This person already has a call in progress.');
    // The specification's form (§8) stays on the error for logs.
    expect(error.message).toBe('Request failed with status 409 Conflict: This person already has a call in progress.');
  });
  it('says what happened in words when the server sent only a status or a validator list', () => {
    expect(errorMessage(errorFromResponse(409, 'Conflict', ''))).toBe('This changed meanwhile. Reload the page and try again.');
    const invalid = { error: { code: 'VALIDATION_FAILED', message: 'aiRecommendation: Invalid option: expected one of "PASS"|"FAIL"' } };
    expect(errorMessage(errorFromResponse(400, 'Bad Request', invalid))).toBe('This was not accepted. Check the details and try again.');
    expect(errorMessage(errorFromResponse(403, 'Forbidden', { error: { code: 'FORBIDDEN', message: 'Forbidden' } }))).toBe('You do not have access to this.');
    expect(errorMessage(errorFromResponse(502, 'Bad Gateway', '<html>'))).toBe('The server could not finish this. Try again in a moment.');
  });
  it('keeps the message of anything else thrown', () => {
    expect(errorMessage(new Error('Request aborted'))).toBe('Request aborted');
  });
});
