import type { Span } from './text';

/**
 * The reason a criterion gives for refusing pregnancy or breastfeeding, or for asking for contraception, in the words
 * of the templates many protocols share (decision 320): "The effects of X on the developing human fetus are unknown",
 * "for this reason and because EGFR inhibitors are known to be teratogenic", "because X is an agent with the potential
 * for teratogenic or abortifacient effects", "because there is an unknown but potential risk for adverse events in
 * nursing infants ...", "due to unknown risks of X during pregnancy". A reason asks nothing of the person: its words,
 * and the medicines it names, are no requirement.
 */
const REASONS = [
  /\bthe\s+effects?\s+of\s+[^.;]{1,160}?\s+on\s+the\s+(?:developing\s+)?(?:human\s+)?(?:fetus|foetus|embryo|unborn\s+child)\s+(?:are|is|remain)\s+(?:unknown|not\s+known)\b/gi,
  /\bfor\s+(?:this|these)\s+reasons?(?:\s+and\s+because\s+[^.;]{1,120}?\s+(?:is|are)\s+known\s+to\s+be\s+(?:teratogenic|abortifacient)(?:\s+(?:or|and)\s+(?:teratogenic|abortifacient))?)?\s*,?/gi,
  /\b(?:because|since|as)\s+[^.;]{1,120}?\s+(?:is|are)\s+(?:an?\s+)?(?:agents?\s+)?(?:with\s+(?:the\s+)?potential\s+for|known\s+to\s+(?:be|have))\s+(?:teratogenic|abortifacient)(?:\s+(?:or|and)\s+(?:teratogenic|abortifacient))?(?:\s+effects?)?/gi,
  // Up to the clause the reason is for ("..., breastfeeding should be discontinued"), or the sentence's end.
  /\b(?:because|since|as)\s+there\s+(?:is|are)\s+(?:an?\s+)?(?:unknown(?:\s+but\s+potential)?|potential|possible)\s+risks?\s+(?:for|of|to)\s+[^.;]{1,220}?(?=\s*,?\s*(?:breast-?\s?feeding|women|pregnant|patients|participants|subjects|she|they|mothers)\b|\s*[.;]|\s*$)/gi,
  /\b(?:due\s+to|because\s+of)\s+(?:the\s+)?(?:unknown|potential|possible)(?:\s+but\s+potential)?\s+risks?\s+(?:of|to|for)\s+[^.;,]{1,100}/gi,
];

/** Where a criterion gives its reason; empty for most criteria (one cheap test first). */
export function rationaleSpans(text: string): Span[] {
  if (!/unknown|teratogen|abortifacient|risk/i.test(text)) return [];
  return REASONS.flatMap((pattern) => [...text.matchAll(pattern)].map((match): Span => [match.index, match.index + match[0].length]));
}

/** The text with its reasons blanked, the same length, so spans still fit it. */
export function withoutRationale(text: string): string {
  return rationaleSpans(text).reduce((rest, [start, end]) => rest.slice(0, start) + ' '.repeat(end - start) + rest.slice(end), text);
}
