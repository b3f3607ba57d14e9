import pino from 'pino';

/**
 * Field names that may carry patients' or staff's personal data. pino replaces them wherever they appear
 * (top level or one level down), so a careless `log.info({ candidate })` still leaks nothing.
 */
const PERSONAL_FIELDS = [
  'name',
  'firstName',
  'lastName',
  'email',
  'phone',
  'phoneNumber',
  'password',
  'newPassword',
  'currentPassword',
  'transcript',
  'message',
  'body',
  'dateOfBirth',
  'address',
  'token',
  'cookie',
  'authorization',
];

export function createLogger(level: string, destination?: pino.DestinationStream) {
  return pino(
    {
      level,
      redact: {
        paths: [...PERSONAL_FIELDS, ...PERSONAL_FIELDS.map((field) => `*.${field}`), 'req.headers.cookie', 'req.headers.authorization'],
        censor: '[redacted]',
      },
    },
    destination,
  );
}
export type Logger = ReturnType<typeof createLogger>;
