import type { SmsPurpose, SmsTemplateKey, SmsTemplateVariable } from '../../../contract/sms';
import { SMS_TEMPLATE_KEYS } from '../../../contract/sms';
import { badRequest } from '../../http/errors';

/**
 * Texts to patients (issue 32): {visitTime} is a moment in words in the site's zone and the person's language
 * (contract/when-words.ts), {trialTitle} the trial's short name (contract/trial-name.ts), never codes or ISO dates.
 */
export interface SmsTemplate {
  key: SmsTemplateKey;
  label: string;
  /** Decides the consent rule (marketing: opted-in candidates only, 8:00-21:00 their time). */
  purpose: SmsPurpose;
  text: { en: string; es: string };
}

/** Every marketing text ends with the opt-out line carriers expect. */
export const STOP_EN = ' Reply STOP to opt out.';
export const STOP_ES = ' Responda STOP para no recibir más mensajes.';

export const SMS_TEMPLATES: Record<SmsTemplateKey, SmsTemplate> = {
  visit_confirmation: {
    key: 'visit_confirmation',
    label: 'Visit confirmation',
    purpose: 'transactional',
    text: {
      en: 'Hi {firstName}, your screening visit for {trialTitle} is confirmed for {visitTime} at {siteAddress}. - {organizationName}',
      es: 'Hola {firstName}, su visita de evaluación para {trialTitle} está confirmada para el {visitTime} en {siteAddress}. - {organizationName}',
    },
  },
  visit_reminder: {
    key: 'visit_reminder',
    label: 'Visit reminder',
    purpose: 'transactional',
    text: {
      en: 'Reminder: {firstName}, your visit for {trialTitle} is on {visitTime} at {siteAddress}. Reply to this message if you need to reschedule. - {organizationName}',
      es: 'Recordatorio: {firstName}, su visita para {trialTitle} es el {visitTime} en {siteAddress}. Responda a este mensaje si necesita cambiarla. - {organizationName}',
    },
  },
  prescreen_invitation: {
    key: 'prescreen_invitation',
    label: 'Prescreen invitation',
    purpose: 'marketing',
    text: {
      en: `Hi {firstName}, {organizationName} is looking for volunteers for {trialTitle}. Reply YES to hear if you may qualify.${STOP_EN}`,
      es: `Hola {firstName}, {organizationName} busca voluntarios para {trialTitle}. Responda SI para saber si puede participar.${STOP_ES}`,
    },
  },
  callback_notice: {
    key: 'callback_notice',
    label: 'Callback notice',
    purpose: 'transactional',
    text: {
      en: 'Hi {firstName}, a coordinator from {organizationName} will call you back about {trialTitle} on {visitTime}.',
      es: 'Hola {firstName}, un coordinador de {organizationName} le devolverá la llamada sobre {trialTitle} el {visitTime}.',
    },
  },
  follow_up: {
    key: 'follow_up',
    label: 'Follow-up',
    purpose: 'transactional',
    text: {
      en: 'Hi {firstName}, thank you for your interest in {trialTitle}. Reply here with any questions. - {organizationName}',
      es: 'Hola {firstName}, gracias por su interés en {trialTitle}. Responda aquí si tiene preguntas. - {organizationName}',
    },
  },
  /** Sent after the visit (prescreen/visit-feedback.ts): the reply (1-5) is the patient's satisfaction rating (decision 067). */
  booking_feedback: {
    key: 'booking_feedback',
    label: 'Booking feedback',
    purpose: 'transactional',
    text: {
      en: 'Hi {firstName}, thank you for coming to your visit for {trialTitle}. How easy was it to book? Reply with a number from 1 (very hard) to 5 (very easy). - {organizationName}',
      es: 'Hola {firstName}, gracias por venir a su visita para {trialTitle}. ¿Qué tan fácil fue reservarla? Responda con un número del 1 (muy difícil) al 5 (muy fácil). - {organizationName}',
    },
  },
};

const PLACEHOLDER = /\{([a-zA-Z]+)\}/g;

/** The variables a template uses, in order of first use. */
export function templateVariables(key: SmsTemplateKey): SmsTemplateVariable[] {
  const names = [...SMS_TEMPLATES[key].text.en.matchAll(PLACEHOLDER)].map((match) => match[1] as SmsTemplateVariable);
  return [...new Set(names)];
}

export function listTemplates() {
  return SMS_TEMPLATE_KEYS.map((key) => ({ ...SMS_TEMPLATES[key], variables: templateVariables(key) }));
}

export const templateLanguage = (preferredLanguage: string | null | undefined): 'en' | 'es' =>
  preferredLanguage?.toLowerCase().startsWith('es') ? 'es' : 'en';

/**
 * The template's text in `language` with every {variable} filled. A missing or blank variable is a 400 naming
 * it (variables.<name>), so a half-filled message never goes out.
 */
export function renderTemplate(
  key: string,
  language: 'en' | 'es',
  variables: Record<string, string | null | undefined>,
): { text: string; template: SmsTemplate } {
  const template = (SMS_TEMPLATES as Record<string, SmsTemplate | undefined>)[key];
  if (!template) throw badRequest(`templateKey: Unknown template ${key}`, [{ path: 'templateKey', message: `Unknown template ${key}` }]);
  const { text, missing } = fillPlaceholders(template.text[language], variables);
  if (missing.length) {
    throw badRequest(
      missing.map((name) => `variables.${name}: Missing variable ${name} for template ${key}`).join('; '),
      missing.map((name) => ({ path: `variables.${name}`, message: `Missing variable ${name}` })),
    );
  }
  return { text, template };
}

/** `source` with every {variable} that has a value filled; `missing` names those without one (left as written). */
export function fillPlaceholders(source: string, variables: Record<string, string | null | undefined>): { text: string; missing: string[] } {
  const missing = [...new Set([...source.matchAll(PLACEHOLDER)].map((match) => match[1]).filter((name) => !variables[name]?.trim()))];
  const text = source.replace(PLACEHOLDER, (whole, name: string) => variables[name]?.trim() || whole);
  return { text, missing };
}
