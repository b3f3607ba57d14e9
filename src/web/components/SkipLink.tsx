/** The first stop of the keyboard on every signed-in layout: straight to the page's main content (#main). */
export function SkipLink() {
  return (
    <a
      href="#main"
      className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2 focus:text-blue-800"
    >
      Skip to content
    </a>
  );
}
