// Page-level styles, adopted as constructable stylesheets so they pass a CSP without 'unsafe-inline' styles.
import { BODY_CLASS, PALETTES, paletteDeclarations } from './palettes.js';

/**
 * Tokens every component inherits through its shadow root. Colours stay `--vscode-*`; the only token here is
 * the width of the borders high-contrast themes draw where other themes rely on a background colour.
 */
const BASE = `
:root { --ri-hc-border: 0px; }
body.vscode-high-contrast, body.vscode-high-contrast-light { --ri-hc-border: 1px; }
html, body { height: 100%; margin: 0; padding: 0; }
body {
  background: var(--vscode-editor-background);
  color: var(--vscode-foreground);
  font-family: var(--vscode-font-family);
  font-size: var(--vscode-font-size);
  font-weight: var(--vscode-font-weight);
  overflow: hidden;
}
`;

function sheet(text: string): CSSStyleSheet {
  const s = new CSSStyleSheet();
  s.replaceSync(text);
  return s;
}

export function installDocumentStyles(doc: Document = document): void {
  doc.adoptedStyleSheets = [...doc.adoptedStyleSheets, sheet(BASE)];
}

/**
 * Outside VS Code (the HTML report) nobody defines the `--vscode-*` variables: define VS Code's own defaults,
 * dark or light after the reader's system, high contrast when the system asks for more contrast, and set the
 * body class VS Code would set so the same high-contrast rules apply.
 */
export function installFallbackTheme(doc: Document = document, win: Window = window): void {
  doc.adoptedStyleSheets = [...doc.adoptedStyleSheets, sheet(`
:root { ${paletteDeclarations(PALETTES.dark)} }
@media (prefers-color-scheme: light) { :root { ${paletteDeclarations(PALETTES.light)} } }
@media (forced-colors: active), (prefers-contrast: more) { :root { ${paletteDeclarations(PALETTES.highContrast)} } }
`)];
  const light = win.matchMedia('(prefers-color-scheme: light)');
  const contrast = win.matchMedia('(forced-colors: active), (prefers-contrast: more)');
  const apply = () => {
    const name = contrast.matches ? 'highContrast' : light.matches ? 'light' : 'dark';
    doc.body.classList.remove(...Object.values(BODY_CLASS));
    doc.body.classList.add(BODY_CLASS[name]);
  };
  apply();
  light.addEventListener('change', apply);
  contrast.addEventListener('change', apply);
}
