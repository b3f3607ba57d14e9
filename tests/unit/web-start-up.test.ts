import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { calendarDateInWords } from '../../src/web/lib/date-words';

const root = path.resolve(import.meta.dirname, '../..');

/** The web app's sources and the contract it imports, as [path, text]. */
function sources(): [string, string][] {
  const files: [string, string][] = [];
  for (const folder of ['src/web', 'src/contract']) {
    for (const entry of readdirSync(path.join(root, folder), { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || !/\.tsx?$/.test(entry.name)) continue;
      const file = path.join(entry.parentPath, entry.name);
      files.push([path.relative(root, file), readFileSync(file, 'utf8')]);
    }
  }
  return files;
}

describe("the web app's start-up on a phone (issue 32, decision 208)", () => {
  it('builds no Intl formatter when a module loads: the first one loads locale data before the first paint', () => {
    const atLoad = /^(?:export\s+)?(?:const|let|var)\s+\w+(?::[^=]+)?\s*=\s*new\s+Intl\./m;
    const offenders = sources()
      .filter(([, text]) => atLoad.test(text))
      .map(([file]) => file);
    expect(offenders, 'make the formatter at its first use (`formatter ??= new Intl...`)').toEqual([]);
  });

  it('still says a date answer in words, the same each time', () => {
    expect(calendarDateInWords('1961-07-04')).toBe('4 July 1961');
    expect(calendarDateInWords('2003-12-25')).toBe('25 December 2003');
    expect(calendarDateInWords('2001-02-29')).toBeNull();
  });
});
