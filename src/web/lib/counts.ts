/**
 * Counts as every page writes them: "3,003", never "3003". One place for the separator, so a table column, a
 * heading and a sentence agree.
 *
 * A whole number is grouped here, not by `toLocaleString('en-US')`: a renderer's first number format loads ICU's
 * number data, 55-110 ms of main-thread CPU on Lighthouse's phone (4x slowdown), paid by the first page that shows a
 * count (decision 233). The output is the same as `toLocaleString('en-US')` for every number; anything but a safe
 * integer (fractions, NaN, Infinity) still goes to one `Intl.NumberFormat`, built at its first use.
 */
let numberFormat: Intl.NumberFormat | undefined;

export const countWords = (value: number): string => {
  if (!Number.isSafeInteger(value)) return (numberFormat ??= new Intl.NumberFormat('en-US')).format(value);
  const digits = String(Math.abs(value)).replace(/\B(?=(\d{3})+$)/g, ',');
  return value < 0 || Object.is(value, -0) ? `-${digits}` : digits;
};

/** "1 trial", "1,001 trials". */
export const countOf = (value: number, one: string, many = `${one}s`): string => `${countWords(value)} ${value === 1 ? one : many}`;
