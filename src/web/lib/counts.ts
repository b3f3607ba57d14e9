/**
 * Counts as every page writes them: "3,003", never "3003". One place for the separator, so a table column, a
 * heading and a sentence agree.
 */
export const countWords = (value: number): string => value.toLocaleString('en-US');

/** "1 trial", "1,001 trials". */
export const countOf = (value: number, one: string, many = `${one}s`): string => `${countWords(value)} ${value === 1 ? one : many}`;
