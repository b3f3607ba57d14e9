/** A language model call that failed: it did not answer in time, could not be reached or refused (http), or answered outside the expected shape. */
export class CriteriaReaderError extends Error {
  constructor(
    message: string,
    readonly code: 'timeout' | 'http' | 'format',
  ) {
    super(message);
  }
}
