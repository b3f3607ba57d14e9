import { describe, expect, it } from 'vitest';
import { ApiRequestError } from '../../src/web/lib/api';
import { apiProblem, placeFieldErrors } from '../../src/web/lib/form-errors';

// A 400 from the API as the web client throws it: the sentence and the per-field details in the body.
const refused = (details: Array<{ path: string; message: string }>) =>
  new ApiRequestError('Invalid request: check the fields', 400, 'Bad Request', {
    error: { code: 'VALIDATION_FAILED', message: 'Check the fields', details },
  });

function recorder() {
  const shown: Record<string, string | undefined> = {};
  const setError = (field: string, error: { message?: string }) => {
    shown[field] = error.message;
  };
  return { shown, setError };
}

describe('placeFieldErrors', () => {
  it('shows each message beside the field its path names, first message of a field first', () => {
    const { shown, setError } = recorder();
    const result = placeFieldErrors<{ phone: string; consent: { sms: boolean } }>(
      refused([
        { path: 'phone', message: 'Not a phone number' },
        { path: 'phone', message: 'Too long' },
        { path: 'consent.sms', message: 'Required' },
      ]),
      ['phone', 'consent'],
      setError as never,
    );
    expect(shown).toEqual({ phone: 'Not a phone number', consent: 'Required' });
    expect(result).toEqual({ message: 'Check the fields', placed: 3, unplaced: 0 });
  });

  it('leaves a message about a field the form does not show for the alert', () => {
    const { shown, setError } = recorder();
    const result = placeFieldErrors<{ name: string }>(refused([{ path: 'organizationId', message: 'Unknown organization' }]), ['name'], setError as never);
    expect(shown).toEqual({});
    expect(result).toEqual({ message: 'Check the fields', placed: 0, unplaced: 1 });
  });

  it('places nothing for an error without details (a network failure)', () => {
    const { shown, setError } = recorder();
    expect(placeFieldErrors<{ name: string }>(new Error('Failed to fetch'), ['name'], setError as never)).toEqual({
      message: 'Failed to fetch',
      placed: 0,
      unplaced: 0,
    });
    expect(shown).toEqual({});
  });
});

describe('apiProblem', () => {
  it('reads the server sentence, dropping malformed details', () => {
    const error = new ApiRequestError('Request failed', 409, 'Conflict', {
      error: { message: 'Already booked', details: [{ path: 'slot', message: 'Taken' }, { path: 3 }, null] },
    });
    expect(apiProblem(error)).toEqual({ message: 'Already booked', details: [{ path: 'slot', message: 'Taken' }] });
  });
});
