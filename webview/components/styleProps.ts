// An element directive that sets CSS properties through the CSSOM, which a CSP without 'unsafe-inline' allows.
import { noChange } from 'lit';
import { Directive, PartType, directive } from 'lit/directive.js';
import type { ElementPart, PartInfo } from 'lit/directive.js';

/**
 * Lit's styleMap writes a `style` attribute on first render, which `style-src` without 'unsafe-inline' blocks in
 * the VS Code panel; this sets each property with `style.setProperty` every time instead.
 */
class StyleProps extends Directive {
  constructor(part: PartInfo) {
    super(part);
    if (part.type !== PartType.ELEMENT) throw new Error('styleProps must be used on an element: <div ${styleProps({...})}>');
  }

  render(_props: Record<string, string>) {
    return noChange;
  }

  override update(part: ElementPart, [props]: [Record<string, string>]) {
    const style = (part.element as HTMLElement).style;
    for (const [name, value] of Object.entries(props)) {
      if (style.getPropertyValue(name) !== value) style.setProperty(name, value);
    }
    return noChange;
  }
}

export const styleProps = directive(StyleProps);
