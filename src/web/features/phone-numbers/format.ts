import type { PhoneNumberProvider, PhoneNumberPurpose } from '../../../contract/phone-numbers';

export const PURPOSE_LABELS: Record<PhoneNumberPurpose, string> = { voice: 'Voice', sms: 'SMS', both: 'Voice and SMS' };
export const PROVIDER_LABELS: Record<PhoneNumberProvider, string> = { simulator: 'Simulator', twilio: 'Twilio', vapi: 'Vapi' };
