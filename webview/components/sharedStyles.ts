// Styles several components share: layout resets, outcome and role badges, highlight marks, link-like buttons.
import { css } from 'lit';

export const baseStyles = css`
  :host { box-sizing: border-box; }
  *, *::before, *::after { box-sizing: inherit; }
  :focus-visible { outline: 1px solid var(--vscode-focusBorder); outline-offset: -1px; }
  .muted { color: var(--vscode-descriptionForeground); }
  .mono { font-family: var(--vscode-editor-font-family); font-size: var(--vscode-editor-font-size); }
  .error-text { color: var(--vscode-errorForeground); }
  h2, h3, h4 { font-weight: 600; margin: 0; }
  h2 { font-size: 1.25em; }
  h3 { font-size: 1.05em; }
  h4 { font-size: 1em; }
  .link {
    background: none; border: none; padding: 0; margin: 0; font: inherit; cursor: pointer;
    color: var(--vscode-textLink-foreground); text-decoration: underline; text-underline-offset: 2px;
  }
  .link:hover { color: var(--vscode-textLink-activeForeground); }
  .visually-hidden {
    position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap;
  }
`;

/** Outcome shown as glyph + word, so meaning never rests on colour alone. */
export const outcomeStyles = css`
  .outcome { display: inline-flex; align-items: center; gap: 0.25em; white-space: nowrap; font-weight: 600; }
  .outcome.pass { color: var(--vscode-testing-iconPassed); }
  .outcome.fail { color: var(--vscode-testing-iconFailed); }
  .outcome.error { color: var(--vscode-errorForeground); }
  .outcome.none { color: var(--vscode-descriptionForeground); }
  .badge {
    display: inline-block; padding: 0 0.5em; border-radius: 2px; font-size: 0.9em; line-height: 1.5;
    background: var(--vscode-badge-background); color: var(--vscode-badge-foreground);
    border: var(--ri-hc-border) solid var(--vscode-contrastBorder, transparent);
    white-space: nowrap;
  }
`;

export const roleStyles = css`
  .role { font-weight: 600; white-space: nowrap; }
  .role::before { margin-inline-end: 0.3em; }
  .role.positive { color: var(--vscode-charts-green); }
  .role.positive::before { content: '●'; }
  .role.negative { color: var(--vscode-charts-orange); }
  .role.negative::before { content: '○'; }
  .role.counterfactual { color: var(--vscode-charts-red); }
  .role.counterfactual::before { content: '◆'; }
  .role.haystack { color: var(--vscode-descriptionForeground); }
  .role.haystack::before { content: '▤'; }
`;

/**
 * Each span kind has its own line style (solid underline, double overline, wavy underline, dashed outline), so
 * kinds stay apart when a high-contrast theme turns every highlight background black, and they combine when
 * spans overlap (an answer inside a needle).
 */
export const markStyles = css`
  mark { color: inherit; background: transparent; border-radius: 2px; }
  mark.answer {
    background: var(--vscode-diffEditor-insertedTextBackground);
    border-bottom: 2px solid var(--vscode-testing-iconPassed);
  }
  mark.needle {
    background: var(--vscode-editor-findMatchHighlightBackground);
    border-top: 3px double var(--vscode-editorWarning-foreground);
  }
  mark.counterfactual {
    background: var(--vscode-diffEditor-removedTextBackground);
    text-decoration: underline wavy var(--vscode-testing-iconFailed);
    text-decoration-skip-ink: none;
    text-underline-offset: 3px;
  }
  mark.evidence { outline: 1px dashed var(--vscode-textLink-foreground); outline-offset: 1px; }
  mark.citation { text-decoration: underline dotted var(--vscode-textLink-foreground); }
  mark.flash {
    outline: 2px solid var(--vscode-focusBorder); outline-offset: 2px;
    animation: ri-flash 1.5s ease-out;
  }
  @keyframes ri-flash {
    0%, 30% { background: var(--vscode-editor-findMatchBackground); }
  }
  @media (prefers-reduced-motion: reduce) { mark.flash { animation: none; } }
`;
