/**
 * A trial's name where space or attention is short (issue 32): tables, breadcrumbs, pickers and every text to a
 * patient. The official title stays on the trial's own page.
 */

export interface NamedTrial {
  title: string;
  publicTitle?: string | null;
  conditions?: readonly string[] | null;
}

/** Longer than this, a title no longer reads as a name in a text message or a table cell. */
export const SHORT_NAME_MAX = 70;

/** "(RESTORE-2)", "ALPHA-1: A Study of..." or "...: the HOPE trial": a study acronym written in the title. */
export function acronymIn(title: string): string | null {
  const bracketed = [...title.matchAll(/\(([A-Z][A-Z0-9]*(?:[-‑ ][A-Z0-9]+)*)\)/g)].map((match) => match[1]);
  const leading = /^([A-Z][A-Z0-9]*(?:-[A-Z0-9]+)*)\s*[:-]\s/.exec(title)?.[1];
  const found = [...bracketed, leading].find((word) => word && word.length >= 3 && word.length <= 20 && /[A-Z]{2}/.test(word));
  return found ?? null;
}

/** The brief (public) title when it is shorter than the official title, else the official title. */
export function shortTrialTitle(trial: NamedTrial): string {
  return trial.publicTitle?.trim() && trial.publicTitle.trim().length < trial.title.length ? trial.publicTitle.trim() : trial.title;
}

/**
 * The name a patient reads: the brief title; when even that is long, the study's acronym ("the RESTORE-2 study"),
 * else (English only: conditions are stored in English) its first condition ("the asthma study"), else "the study"
 * (also without a trial). Never the long official title.
 */
/** The name when nothing better is known (no trial, or a long title without an acronym or condition). */
const THE_STUDY = { en: 'the study', es: 'el estudio' } as const;

export function patientTrialName(trial: NamedTrial | null | undefined, language: 'en' | 'es'): string {
  if (!trial) return THE_STUDY[language];
  const short = shortTrialTitle(trial);
  if (short.length <= SHORT_NAME_MAX) return short;
  const acronym = acronymIn(trial.publicTitle ?? '') ?? acronymIn(trial.title);
  if (language === 'es') return acronym ? `el estudio ${acronym}` : THE_STUDY.es;
  const condition = trial.conditions?.find((item) => item.trim().length > 0 && item.length <= 40)?.trim();
  // "Asthma" reads "asthma" mid-sentence; "COPD" stays as written.
  const said = condition && /^[A-Z][a-z]/.test(condition) ? condition[0].toLowerCase() + condition.slice(1) : condition;
  return acronym ? `the ${acronym} study` : said ? `the ${said} study` : THE_STUDY.en;
}
