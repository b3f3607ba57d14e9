import { describe, expect, it } from 'vitest';
import { callsSearch, chatConversationsSearch, dashboardSearch, prescreenResultsSearch, voiceAgentsSearch } from '../../src/contract/search';

// Bad search params fall back to the route's defaults instead of crashing the page (docs/product-spec.md §5).
describe('route search params', () => {
  it('turns page=0 or a non-number into page 1', () => {
    expect(callsSearch.parse({ page: 0 }).page).toBe(1);
    expect(callsSearch.parse({ page: 'abc' }).page).toBe(1);
    expect(callsSearch.parse({ page: '3' }).page).toBe(3);
    expect(callsSearch.parse({ filter: 'bogus' }).filter).toBe('all');
  });
  it('answers an unknown tab or enum with the default', () => {
    expect(dashboardSearch.parse({ tab: 'nope' }).tab).toBe('funnel-breakdown');
    expect(dashboardSearch.parse({ tab: 'costs' }).tab).toBe('costs');
    expect(voiceAgentsSearch.parse({ 'agent-type': 'x' })['agent-type']).toBe('PRESCREEN');
    expect(prescreenResultsSearch.parse({ aiRecommendation: 'MAYBE' }).aiRecommendation).toBeUndefined();
    expect(prescreenResultsSearch.parse({ aiRecommendation: 'PASS', sourceType: 'call' })).toMatchObject({ aiRecommendation: 'PASS', sourceType: 'call' });
    expect(chatConversationsSearch.parse({ sortBy: 'name' }).sortBy).toBe('createdAt:desc');
  });
  it('drops a bad value even where the router spreads the checked search over the raw one', () => {
    // TanStack Router builds a route's search as { ...raw, ...validated }: a bad value must be overwritten.
    const raw = { aiRecommendation: 'MAYBE', sourceType: 'fax' };
    const seen = { ...raw, ...prescreenResultsSearch.parse(raw) };
    expect(seen.aiRecommendation).toBeUndefined();
    expect(seen.sourceType).toBeUndefined();
    const callbacks = { ...{ status: 'PAUSED' }, ...chatConversationsSearch.parse({ status: 'PAUSED' }) };
    expect(callbacks.status).toBeUndefined();
  });
  it('keeps orgs as a list', () => {
    expect(prescreenResultsSearch.parse({ orgs: ['a', 'b'] }).orgs).toEqual(['a', 'b']);
    expect(prescreenResultsSearch.parse({ orgs: 'a,b' }).orgs).toEqual(['a', 'b']);
  });
});
