import type { ImportField } from '../../../contract/candidates';

/**
 * The import's fields in words: the mapping's choices, the sample's columns, and the field a row problem is
 * about, on the import page and on a finished run's page alike.
 */
export const IMPORT_FIELD_LABELS: Record<ImportField, string> = {
  firstName: 'First name',
  lastName: 'Last name',
  fullName: 'Full name (split)',
  phone: 'Phone',
  email: 'Email',
  dateOfBirth: 'Date of birth',
  sex: 'Sex',
  addressLine: 'Address',
  city: 'City',
  region: 'State / region',
  postalCode: 'Postal code',
  country: 'Country',
  timeZone: 'Time zone',
  preferredLanguage: 'Preferred language',
  source: 'Source',
  consentSms: 'SMS consent (yes/no)',
  consentCalls: 'Call consent (yes/no)',
  consentSource: 'Consent source',
  consentDate: 'Consent date',
  conditions: 'Diagnoses (; separated)',
  medications: 'Medications (; separated)',
  lab: 'Lab or vital value (named by the header)',
  clinicalDate: 'Date of the lab values',
  notes: 'Clinical notes (read into facts)',
  custom: 'Keep as custom field',
  ignore: 'Ignore',
};
