import type { Token } from './normalize';

/** Words that say a function is lower than it should be; not "abnormal", which of liver function is a lab finding. */
const LOWERED = /^(?:impaired|reduced|decreased|diminished|compromised|poor)$/;

/**
 * "Impaired renal function", "reduced kidney function", "hepatic function impairment", "impairment of liver function":
 * clinicians' words for an organ's impairment (decision 348). The phrase "<organ> impairment" the vocabulary reads
 * ("renal impairment" is chronic kidney disease's, "hepatic impairment" liver disease's), with the number of words it
 * stands for; null when the words are not one of these shapes. Only one organ word, and the vocabulary decides: "impaired
 * cardiac function" finds no "cardiac impairment" and stays unread.
 */
export function impairedFunction(text: string, tokens: readonly Token[], index: number): { phrase: string; size: number } | null {
  // Cheap first: asked at every word nothing else read (bench:note-extract).
  const [second, third] = [tokens[index + 1]?.key, tokens[index + 2]?.key];
  if (second !== 'function' && third !== 'function' && second !== 'of') return null;
  const at = (offset: number) => tokens[index + offset];
  const joined = (from: number, to: number) => /^\s+$/.test(text.slice(at(from).end, at(to).start));
  const word = (offset: number) => at(offset)?.word.toLowerCase() ?? '';
  const organ = (offset: number) => (/^\p{L}{3,}$/u.test(word(offset)) ? word(offset) : null);
  // "Impaired renal function"
  if (LOWERED.test(word(0)) && organ(1) && /^functions?$/.test(word(2)) && joined(0, 1) && joined(1, 2)) return { phrase: `${word(1)} impairment`, size: 3 };
  // "Renal function impairment"
  if (organ(0) && /^functions?$/.test(word(1)) && /^(?:impairment|insufficiency)$/.test(word(2)) && joined(0, 1) && joined(1, 2))
    return { phrase: `${word(0)} ${word(2)}`, size: 3 };
  // "Impairment of (the) liver function"
  const first = word(2) === 'the' ? 3 : 2;
  if (word(0) === 'impairment' && word(1) === 'of' && organ(first) && /^functions?$/.test(word(first + 1)) && joined(first, first + 1))
    return { phrase: `${word(first)} impairment`, size: first + 2 };
  return null;
}
