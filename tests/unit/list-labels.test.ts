import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Table } from '../../src/web/components/ui';
import { DefaultSelectionNote } from '../../src/web/features/trials/DefaultSelectionNote';

describe('a table named by the heading above it (issue 32)', () => {
  it('has no caption repeating the heading; the region and table take their name from it', () => {
    const html = renderToStaticMarkup(Table({ labelledBy: 'waiting-heading', children: createElement('tbody') }));
    expect(html).not.toContain('<caption');
    expect(html.match(/aria-labelledby="waiting-heading"/g)).toHaveLength(2);
  });

  it('a table without a heading keeps its visually hidden caption', () => {
    const html = renderToStaticMarkup(Table({ caption: 'Upcoming visits', children: createElement('tbody') }));
    expect(html).toContain('<caption class="sr-only">Upcoming visits</caption>');
    expect(html).toContain('aria-label="Upcoming visits"');
  });
});

describe('the default organization selection note', () => {
  it('says, in the same words for each list, which organizations are left out and how to see one', () => {
    const text = (things: string) => renderToStaticMarkup(createElement(DefaultSelectionNote, { things }));
    expect(text('candidates')).toContain('“demo”, “test” or “Cohortly” are left out by default: choose one under Organizations above to see its candidates.');
    expect(text('trials').replace('trials', 'candidates')).toBe(text('candidates'));
  });
});
