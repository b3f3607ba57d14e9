/**
 * A MeSH heading's name in plain words: "Diabetes Mellitus, Type 2" -> "type 2 diabetes mellitus"; acronyms keep their
 * capitals, and so do the `eponyms` of a heading named after a person ("Hodgkin disease", "Wolff-Parkinson-White syndrome").
 */
export function plainName(name: string, eponyms?: ReadonlySet<string>): string {
  const ordered = name.includes(',') && !/\d,\d|\(/.test(name) ? name.split(/,\s+/).reverse().join(' ') : name;
  return ordered.replace(/[\p{L}\p{N}'-]+/gu, (word) =>
    word
      .split('-')
      .map((part) => plainPart(part, eponyms))
      .join('-'),
  );
}

/** "Hodgkin", "Sjogren's": a person's name keeps its capital, as does an acronym ("HIV", "SARS-CoV-2"); other words are lower case. */
const plainPart = (part: string, eponyms?: ReadonlySet<string>) =>
  /\p{Lu}.*\p{Lu}|\d/u.test(part.slice(1)) || eponyms?.has(part.replace(/'s?$/, '')) ? part : part.toLowerCase();
