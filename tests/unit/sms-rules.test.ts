import { describe, expect, it } from 'vitest';
import { localMinutes } from '../../src/server/calling-hours';
import { contactPermission, type ConsentSubject } from '../../src/server/features/sms/consent';
import { classifyInbound } from '../../src/server/features/sms/keywords';
import { renderTemplate, templateVariables } from '../../src/server/features/sms/templates';
import { mapProviderStatus } from '../../src/server/integrations/sms/port';
import { twilioSignature, validateTwilioSignature } from '../../src/server/integrations/sms/twilio';

const subject = (values: Partial<ConsentSubject> = {}): ConsentSubject => ({
  doNotContact: false,
  consentSms: true,
  consentCalls: true,
  timeZone: 'America/Chicago',
  smsOptedOutAt: null,
  ...values,
});
const noon = new Date('2030-01-15T18:00:00Z'); // 12:00 in Chicago
const night = new Date('2030-01-16T04:00:00Z'); // 22:00 in Chicago

describe('contactPermission', () => {
  it('never allows do-not-contact, on any channel or purpose', () => {
    for (const channel of ['sms', 'call'] as const) {
      for (const purpose of ['transactional', 'marketing', 'verification', 'reply'] as const) {
        expect(contactPermission(subject({ doNotContact: true }), channel, purpose, noon)).toEqual({ allowed: false, reason: 'do_not_contact' });
      }
    }
  });
  it('tells opted-out from never-consented', () => {
    const optedOut = subject({ consentSms: false, smsOptedOutAt: new Date() });
    const never = subject({ consentSms: false });
    for (const purpose of ['transactional', 'marketing', 'verification', 'reply'] as const) {
      expect(contactPermission(optedOut, 'sms', purpose, noon)).toEqual({ allowed: false, reason: 'sms_opted_out' });
    }
    expect(contactPermission(never, 'sms', 'transactional', noon)).toEqual({ allowed: true });
    expect(contactPermission(never, 'sms', 'verification', noon)).toEqual({ allowed: true });
    expect(contactPermission(never, 'sms', 'marketing', noon)).toEqual({ allowed: false, reason: 'no_sms_consent' });
    // SMS opt-out does not touch calls.
    expect(contactPermission(optedOut, 'call', 'transactional', noon)).toEqual({ allowed: true });
  });
  it('keeps marketing to 8:00-21:00 local time, with America/New_York for unknown zones', () => {
    expect(contactPermission(subject(), 'sms', 'marketing', night)).toEqual({ allowed: false, reason: 'quiet_hours' });
    expect(contactPermission(subject(), 'call', 'marketing', night)).toEqual({ allowed: false, reason: 'quiet_hours' });
    expect(contactPermission(subject(), 'sms', 'transactional', night)).toEqual({ allowed: true });
    expect(contactPermission(subject(), 'sms', 'marketing', noon)).toEqual({ allowed: true });
    expect(contactPermission(subject({ consentCalls: false }), 'call', 'marketing', noon)).toEqual({ allowed: false, reason: 'no_call_consent' });
    expect(localMinutes(noon, null)).toBe(13 * 60);
    expect(localMinutes(noon, 'Not/AZone')).toBe(13 * 60);
    expect(localMinutes(new Date('2030-01-15T05:00:00Z'), 'Asia/Kolkata')).toBe(10 * 60 + 30);
  });
});

describe('keywords', () => {
  it('matches whole messages only, ignoring case, accents and punctuation', () => {
    expect(['STOP', 'stop.', '¡Stop!', 'STOP ALL', 'opt out', 'Stop texting me!!', 'No más mensajes', 'cancel', 'quit']).toSatisfy((words: string[]) =>
      words.every((word) => classifyInbound(word) === 'opt_out'),
    );
    expect(classifyInbound('stop by at 5')).toBe('none');
    expect(classifyInbound('START')).toBe('opt_in');
    expect(classifyInbound('unstop')).toBe('opt_in');
    expect(classifyInbound('yes')).toBe('none');
    expect(classifyInbound('yes', true)).toBe('opt_in');
    expect(classifyInbound('Help?')).toBe('help');
    expect(classifyInbound('INFO')).toBe('help');
  });
});

describe('templates', () => {
  it('renders with variables and names each missing one', () => {
    expect(templateVariables('visit_confirmation')).toEqual(['firstName', 'trialTitle', 'visitTime', 'siteAddress', 'organizationName']);
    const { text } = renderTemplate('callback_notice', 'en', {
      firstName: 'Ann',
      organizationName: 'Site',
      trialTitle: 'T',
      visitTime: 'Friday 4 December at 3:00 pm',
    });
    expect(text).toBe('Hi Ann, a coordinator from Site will call you back about T on Friday 4 December at 3:00 pm.');
    expect(() => renderTemplate('callback_notice', 'es', { firstName: 'Ann', organizationName: 'Site', visitTime: ' ' })).toThrow(
      /variables\.trialTitle.*variables\.visitTime/,
    );
    expect(() => renderTemplate('nope', 'en', {})).toThrow(/templateKey/);
  });
});

describe('Twilio', () => {
  it("computes the request signature of Twilio's documented example", () => {
    const params = { CallSid: 'CA1234567890ABCDE', Caller: '+14158675309', Digits: '1234', From: '+14158675309', To: '+18005551212' };
    const url = 'https://mycompany.com/myapp.php?foo=1&bar=2';
    expect(twilioSignature('12345', url, params)).toBe('RSOYDt4T1cUTdK1PDd93/VVr8B8=');
    expect(validateTwilioSignature('12345', 'RSOYDt4T1cUTdK1PDd93/VVr8B8=', url, params)).toBe(true);
    expect(validateTwilioSignature('12345', 'RSOYDt4T1cUTdK1PDd93/VVr8B8=', url, { ...params, Digits: '1235' })).toBe(false);
    expect(validateTwilioSignature('12345', undefined, url, params)).toBe(false);
    expect(validateTwilioSignature('12345', 'short', url, params)).toBe(false);
  });
  it('maps Twilio statuses onto ours', () => {
    expect(['accepted', 'queued', 'sending', 'sent', 'delivered', 'read', 'undelivered', 'failed', 'canceled', 'bogus'].map(mapProviderStatus)).toEqual([
      'queued',
      'queued',
      'queued',
      'sent',
      'delivered',
      'delivered',
      'undelivered',
      'failed',
      'failed',
      undefined,
    ]);
  });
});
