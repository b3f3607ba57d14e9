/** How many matches the list shows at once; typing narrows the rest. */
export const SHOWN = 50;

export interface ComboboxOption {
  value: string;
  /** The option's name: bold in the list, and on the closed button when chosen (unless `chosenLabel`). */
  label: string;
  /** A quieter second line (an NCT id and status, an address, a UTC offset). Not searched: repeat in `keywords` what should be. */
  description?: string;
  /** A short tag beside the label ("Ours"). */
  badge?: string;
  badgeTone?: 'slate' | 'blue' | 'green' | 'amber';
  /** Extra searchable text that is not shown (a postal code, a city, another title). */
  keywords?: string;
  /** The closed button's text when this option is chosen, when it should say more than `label`. */
  chosenLabel?: string;
  /** Why the option cannot be chosen here (shown under it); absent or null when it can. */
  disabledReason?: string | null;
}

export interface Entry {
  option: ComboboxOption;
  /** Lower-cased label and keywords: what the filter reads. */
  haystack: string;
  none?: boolean;
}

/** The words typed, lower-cased; commas separate like spaces. */
export const wordsOf = (text: string) =>
  text
    .toLowerCase()
    .split(/[\s,]+/)
    .filter(Boolean);

/** The options as the filter reads them, with the `noneLabel` choice first when there is one. */
export function entriesOf(options: readonly ComboboxOption[], noneLabel: string | undefined): Entry[] {
  const list: Entry[] = options.map((option) => ({
    option,
    haystack: [option.label, option.chosenLabel, option.keywords].filter(Boolean).join(' ').toLowerCase(),
  }));
  return noneLabel ? [{ option: { value: '', label: noneLabel }, haystack: noneLabel.toLowerCase(), none: true }, ...list] : list;
}

/** The entries that contain every typed word (all of them when nothing is typed). */
export function entriesMatching(entries: Entry[], text: string): Entry[] {
  const words = wordsOf(text);
  return words.length ? entries.filter((entry) => words.every((word) => entry.haystack.includes(word))) : entries;
}

/** The closed button's text: the chosen option, the "none" choice, or else the placeholder. */
export function closedButtonText(
  options: readonly ComboboxOption[],
  value: string | undefined,
  noneLabel: string | undefined,
  placeholder: string | undefined,
) {
  const chosen = value ? options.find((option) => option.value === value) : undefined;
  // A value not among the options (still loading, say) shows the placeholder rather than a raw id.
  const showsPlaceholder = !chosen && !(noneLabel && !value);
  return { buttonText: chosen ? (chosen.chosenLabel ?? chosen.label) : showsPlaceholder ? placeholder : noneLabel, showsPlaceholder };
}
