import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import * as common from '@zxcvbn-ts/language-common';
import * as english from '@zxcvbn-ts/language-en';

/** zxcvbn's scale: 3 is "safely unguessable" against an online attack and a slow offline one (ASVS 5.0 6.2). */
const MIN_SCORE = 3;
/** Shorter parts of a name or address are too common to refuse ("Li", "ab@"). */
const MIN_PERSONAL_PART = 4;
const HINT = 'Try three or four unrelated words, such as "copper-lantern-orbit-meadow".';

let estimator: ZxcvbnFactory | undefined;
/** Built on first use: the dictionaries (common passwords, names, English words) take a quarter of a second to load. */
function strength(): ZxcvbnFactory {
  estimator ??= new ZxcvbnFactory({
    dictionary: { ...common.dictionary, ...english.dictionary },
    graphs: common.adjacencyGraphs,
    translations: english.translations,
  });
  return estimator;
}

const squash = (value: string) => value.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');

/** The account's own words a password must not contain: the email, its local part, the name and its words. */
function personalParts(person: { email?: string | null; name?: string | null }): string[] {
  const email = (person.email ?? '').trim().toLowerCase();
  const name = (person.name ?? '').trim();
  const parts = [email, email.split('@')[0], name, ...name.split(/\s+/)].map(squash);
  return [...new Set(parts.filter((part) => part.length >= MIN_PERSONAL_PART))];
}

/**
 * Why a new password is refused, in plain words with a hint, or null when it is acceptable (decision 121): it
 * contains the account's email or name, or zxcvbn (common passwords, dictionary words, names, keyboard patterns,
 * repeats, sequences, dates) scores it below 3. Lengths are checked before this (PASSWORD_MIN_LENGTH).
 */
export function passwordProblem(password: string, person: { email?: string | null; name?: string | null }): string | null {
  const squashed = squash(password);
  if (personalParts(person).some((part) => squashed.includes(part))) {
    return `Your password must not contain your email address or name. ${HINT}`;
  }
  const result = strength().check(password, [person.email ?? '', person.name ?? ''].filter(Boolean));
  if (result.score >= MIN_SCORE) return null;
  const why = result.feedback.warning ? ` ${result.feedback.warning}` : '';
  return `This password is too easy to guess.${why} ${HINT}`;
}
