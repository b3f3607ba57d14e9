import AxeBuilder from '@axe-core/playwright';
import type { BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';

/**
 * The checks every journey runs on every page it visits (issue 32, "Keep it fixed"): at 1280x800 and at
 * 390x844 (a phone), no horizontal overflow of the document or of an open dialog, no text drawn over other
 * text, no popover hidden under the page, no raw code or ISO timestamp in visible text, and no console error
 * since the page's context opened. The phone pass resizes the same page (no second journey) and restores it.
 */
export const VIEWPORTS = [
  { name: 'desktop 1280x800', width: 1280, height: 800 },
  { name: 'phone 390x844', width: 390, height: 844 },
] as const;

/**
 * Single-word values of the product's enums (contract/, db/schema) that must reach people as words. Acronyms a
 * clinician writes (COPD, ECOG, LVEF...) are not here: they are the words.
 */
export const KNOWN_ENUM_VALUES = [
  'PRESCREEN',
  'POTENTIAL',
  'PASS',
  'FAIL',
  'INCONCLUSIVE',
  'ONGOING',
  'COMPLETED',
  'RECRUITING',
  'PAUSED',
  'DRAFT',
  'ARCHIVED',
  'PENDING',
  'SCHEDULED',
  'CANCELLED',
  'QUEUED',
  // ClinicalTrials.gov phase codes ("PHASE3"): a phase reads "Phase 3" (contract/words.ts phaseWords).
  'PHASE\\d',
];

const consoleErrors = new WeakMap<BrowserContext, string[]>();

/**
 * Collects console errors and uncaught exceptions of every page of the context. A refused request (4xx) is
 * logged by Chromium as "Failed to load resource" whenever a journey tries a refused action on purpose: the
 * screen's answer to it is what the journey asserts, so only 5xx responses count here.
 */
export function watchConsole(context: BrowserContext) {
  const errors: string[] = [];
  consoleErrors.set(context, errors);
  const watchPage = (page: Page) => {
    page.on('console', (message) => {
      if (message.type() !== 'error') return;
      const text = message.text();
      if (/Failed to load resource: the server responded with a status of 4\d\d/.test(text)) return;
      errors.push(`${page.url()}: ${text}`);
    });
    page.on('pageerror', (error) => errors.push(`${page.url()}: uncaught ${error.message}`));
  };
  context.on('page', watchPage);
  for (const page of context.pages()) watchPage(page);
}

/** Console errors seen so far in the page's context (empty when it is not watched). */
export function consoleErrorsOf(page: Page): string[] {
  return consoleErrors.get(page.context()) ?? [];
}

/** No serious or critical axe-core finding on the page as it is now. */
export async function expectAccessible(page: Page) {
  // Measure what the user ends up seeing, not a frame of a colour or fade transition.
  // The style is removed again afterwards: toasts and dialogs rely on their transitions to leave.
  const still = await page.addStyleTag({ content: '*, *::before, *::after { transition: none !important; animation: none !important; }' });
  const results = await new AxeBuilder({ page: page as never }).analyze();
  await still.evaluate((element) => (element as unknown as { remove(): void }).remove()).catch(() => undefined);
  const blocking = results.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
  expect(blocking.map((violation) => `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).join(', ')})`)).toEqual([]);
}

/**
 * Runs the page checks at both sizes, then axe at the journey's own size; fails the test with every problem
 * found, each named with its size and path.
 */
export async function checkPage(page: Page) {
  expect(await pageProblems(page)).toEqual([]);
  expect(consoleErrorsOf(page)).toEqual([]);
  await expectAccessible(page);
}

/** The page checks' findings at both sizes, each named with its size and path; the page is left at its size. */
export async function pageProblems(page: Page): Promise<string[]> {
  const original = page.viewportSize() ?? { width: 1280, height: 800 };
  // Measure the settled layout, not a frame of a transition (removed again: toasts and dialogs need them to leave).
  const still = await page.addStyleTag({ content: '*, *::before, *::after { transition: none !important; animation: none !important; }' });
  const problems: string[] = [];
  // tsx (keepNames) wraps nested functions in __name(): give the page a no-op one.
  await page.evaluate('globalThis.__name ??= (target) => target');
  try {
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize({ width: viewport.width, height: viewport.height });
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
      const found = await page.evaluate(inspectPage, KNOWN_ENUM_VALUES);
      problems.push(...found.map((problem) => `${viewport.name} ${new URL(page.url()).pathname}: ${problem}`));
    }
  } finally {
    await page.setViewportSize(original);
    await still.evaluate((element) => (element as unknown as { remove(): void }).remove()).catch(() => undefined);
  }
  return problems;
}

/**
 * Runs in the page: answers the problems found at the current size. Kept self-contained (it is serialised
 * into the browser).
 */
function inspectPage(knownEnumValues: string[]): string[] {
  const problems: string[] = [];
  const viewportWidth = document.documentElement.clientWidth;
  const short = (text: string) => JSON.stringify(text.trim().replace(/\s+/g, ' ').slice(0, 60));

  // Overflow: the document, and each open dialog (content wider than the dialog clips or scrolls sideways).
  const root = document.documentElement;
  if (root.scrollWidth > root.clientWidth + 1) {
    // Name the culprit: the first element that reaches past the window while its parent does not.
    const culprit = [...document.body.querySelectorAll<HTMLElement>('*')].find(
      (element) =>
        element.getBoundingClientRect().right > viewportWidth + 1 && (element.parentElement?.getBoundingClientRect().right ?? 0) <= viewportWidth + 1,
    );
    const name = culprit ? ` (from <${culprit.tagName.toLowerCase()}> ${short(culprit.textContent ?? '')})` : '';
    problems.push(`the page is ${root.scrollWidth}px wide in a ${root.clientWidth}px window${name}`);
  }
  for (const dialog of document.querySelectorAll<HTMLElement>('[role="dialog"], [role="alertdialog"], dialog[open]')) {
    if (!dialog.checkVisibility()) continue;
    const box = dialog.getBoundingClientRect();
    if (dialog.scrollWidth > dialog.clientWidth + 1) problems.push(`a dialog's content is ${dialog.scrollWidth}px wide in ${dialog.clientWidth}px`);
    if (box.right > viewportWidth + 1 || box.left < -1) problems.push(`a dialog (${Math.round(box.width)}px) runs outside the ${viewportWidth}px window`);
  }

  const intersect = (a: DOMRect, b: DOMRect): DOMRect | null => {
    const left = Math.max(a.left, b.left);
    const top = Math.max(a.top, b.top);
    const right = Math.min(a.right, b.right);
    const bottom = Math.min(a.bottom, b.bottom);
    return right > left && bottom > top ? new DOMRect(left, top, right - left, bottom - top) : null;
  };
  const clips = new Map<Element, DOMRect>();
  /** The area an element's content may paint in: its ancestors' boxes that clip (overflow, clip, clip-path). */
  const clipOf = (element: Element): DOMRect => {
    const known = clips.get(element);
    if (known) return known;
    const parent = element.parentElement;
    let area = parent ? clipOf(parent) : new DOMRect(-1e6, -1e6, 2e6, 2e6);
    const style = getComputedStyle(element);
    if (
      style.overflowX !== 'visible' ||
      style.overflowY !== 'visible' ||
      style.clipPath !== 'none' ||
      (style.clip !== 'auto' && style.position === 'absolute')
    ) {
      area = intersect(area, element.getBoundingClientRect()) ?? new DOMRect(0, 0, 0, 0);
      if (style.clip.startsWith('rect(0') || style.clipPath.startsWith('inset(50%')) area = new DOMRect(0, 0, 0, 0);
    }
    clips.set(element, area);
    return area;
  };

  // The visible text nodes, with their line boxes.
  interface TextBox {
    element: Element;
    text: string;
    rects: DOMRect[];
  }
  const boxes: TextBox[] = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const words: { element: Element; text: string }[] = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.nodeValue ?? '';
    const element = node.parentElement;
    if (!element || !text.trim()) continue;
    if (element.closest('script, style, noscript, template, [aria-hidden="true"]')) continue;
    if (!element.checkVisibility({ opacityProperty: true, visibilityProperty: true })) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    // Only what shows: clipped by its boxes (screen-reader-only text is clipped to a pixel: heard, not seen).
    const clip = clipOf(element);
    const rects = [...range.getClientRects()]
      .map((rect) => intersect(rect, clip))
      .filter((rect): rect is DOMRect => rect !== null && rect.width > 2 && rect.height > 2);
    if (rects.length === 0) continue;
    words.push({ element, text });
    boxes.push({ element, text, rects });
  }

  // Raw codes and timestamps in what people read (code samples and typed values are theirs to show).
  const enumWord = new RegExp(`\\b(${knownEnumValues.join('|')})\\b`);
  for (const { element, text } of words) {
    if (element.closest('code, pre, kbd, samp, [data-raw-text]')) continue;
    const plain = text
      .replace(/\bhttps?:\/\/\S+/g, ' ')
      .replace(/\S+@\S+\.\S+/g, ' ')
      .replace(/\/[\w/.-]+/g, ' ')
      // Units written the way clinicians write them (mmHg) are words, not camelCase codes.
      .replace(/\bmmHg\b/g, ' ')
      // Merge fields of a message template ({firstName}) are what a coordinator types: shown as written.
      .replace(/\{[A-Za-z]+\}/g, ' ');
    const found =
      plain.match(/\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/)?.[0] ??
      plain.match(/\b[A-Z][A-Z0-9]+(?:_[A-Z0-9]+)+\b/)?.[0] ??
      plain.match(/\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b/)?.[0] ??
      plain.match(/\b[a-z]{2,}[A-Z][a-z]+[A-Za-z]*\b/)?.[0] ??
      // An all-capitals sentence (an official title) may hold such a word as a word.
      (plain === plain.toUpperCase() && /[A-Z]{3,}\s+[A-Z]{3,}\s+[A-Z]{3,}/.test(plain) ? undefined : plain.match(enumWord)?.[0]);
    if (found) problems.push(`raw code ${JSON.stringify(found)} in ${short(text)}`);
  }

  // Is the element drawn at the point (or only something above it)?
  const covers = (top: Element | null, element: Element) => !!top && (top === element || element.contains(top) || top.contains(element));
  const opaque = (element: Element) => {
    const colour = getComputedStyle(element).backgroundColor;
    const alpha = colour.startsWith('rgba') ? Number(colour.split(',')[3]?.replace(')', '')) : colour === 'transparent' ? 0 : 1;
    return alpha > 0.5 || getComputedStyle(element).backgroundImage !== 'none';
  };
  /** True when something with a background lies between the top element and the other text (it hides that text). */
  const hidesOther = (top: Element, other: Element) => {
    for (let element: Element | null = top; element && !element.contains(other); element = element.parentElement) {
      if (opaque(element)) return true;
    }
    return false;
  };

  // Text drawn over other text: line boxes of different elements that cross, both left showing at that point.
  const reported = new Set<string>();
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i]!;
      const b = boxes[j]!;
      if (a.element === b.element) continue;
      for (const ra of a.rects) {
        for (const rb of b.rects) {
          const width = Math.min(ra.right, rb.right) - Math.max(ra.left, rb.left);
          const height = Math.min(ra.bottom, rb.bottom) - Math.max(ra.top, rb.top);
          // Glyph boxes of tight lines touch; a real overlap covers a good part of a line's height.
          if (width < 4 || height < 0.4 * Math.min(ra.height, rb.height)) continue;
          const x = Math.max(ra.left, rb.left) + width / 2;
          const y = Math.max(ra.top, rb.top) + height / 2;
          if (x < 0 || y < 0 || x > viewportWidth || y > window.innerHeight) continue;
          const top = document.elementFromPoint(x, y);
          if (!top) continue;
          const drawnA = covers(top, a.element) && !hidesOther(top, b.element);
          const drawnB = covers(top, b.element) && !hidesOther(top, a.element);
          if (!drawnA && !drawnB) continue;
          const key = `${a.text}|${b.text}`;
          if (!reported.has(key)) problems.push(`text ${short(a.text)} overlaps ${short(b.text)}`);
          reported.add(key);
        }
      }
    }
  }

  // A popover, listbox or menu hidden under the page: its own text is not what shows at its place.
  for (const layer of document.querySelectorAll<HTMLElement>('[role="listbox"], [role="menu"], [role="tooltip"], [data-radix-popper-content-wrapper]')) {
    if (!layer.checkVisibility()) continue;
    const area = layer.getBoundingClientRect();
    for (const box of boxes) {
      if (!layer.contains(box.element)) continue;
      const rect = box.rects[0]!;
      const x = rect.left + rect.width / 2;
      const y = rect.top + rect.height / 2;
      if (x < Math.max(0, area.left) || y < Math.max(0, area.top) || x > Math.min(viewportWidth, area.right) || y > Math.min(window.innerHeight, area.bottom))
        continue;
      const top = document.elementFromPoint(x, y);
      if (top && !layer.contains(top)) {
        problems.push(`${short(box.text)} of a ${layer.getAttribute('role') ?? 'popover'} is hidden under ${short(top.textContent ?? top.tagName)}`);
        break;
      }
    }
  }
  return problems;
}
