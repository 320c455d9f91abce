/**
 * Brings `target`'s children in line with `html`, touching only nodes that differ. A streaming block
 * is rendered again on every update but mostly grows at its end: rebuilding it with innerHTML would
 * make the browser style and lay out every formula and code line again; patching leaves unchanged
 * nodes (and a reader's text selection in them) alone.
 */
export function morphHtml(target: Element, html: string): void {
  const template = target.ownerDocument.createElement('template');
  template.innerHTML = html;
  morphChildren(target, template.content);
}

function morphChildren(from: Node, to: Node): void {
  let current = from.firstChild;
  let wanted = to.firstChild;
  while (wanted) {
    const nextWanted: ChildNode | null = wanted.nextSibling;
    if (!current) {
      from.appendChild(wanted);
    } else {
      const nextCurrent: ChildNode | null = current.nextSibling;
      if (!sameKind(current, wanted)) {
        from.replaceChild(wanted, current);
      } else if (current.isEqualNode(wanted)) {
        // A native deep comparison: finished formulas and lines are skipped without walking them in JS.
      } else if (current.nodeType === Node.ELEMENT_NODE) {
        syncAttributes(current as Element, wanted as Element);
        morphChildren(current, wanted);
      } else if (current.nodeValue !== wanted.nodeValue) {
        current.nodeValue = wanted.nodeValue;
      }
      current = nextCurrent;
    }
    wanted = nextWanted;
  }
  while (current) {
    const next: ChildNode | null = current.nextSibling;
    from.removeChild(current);
    current = next;
  }
}

function sameKind(a: Node, b: Node): boolean {
  if (a.nodeType !== b.nodeType) return false;
  if (a.nodeType !== Node.ELEMENT_NODE) return true;
  return (a as Element).localName === (b as Element).localName && (a as Element).namespaceURI === (b as Element).namespaceURI;
}

function syncAttributes(current: Element, wanted: Element): void {
  for (const { name } of [...current.attributes]) if (!wanted.hasAttribute(name)) current.removeAttribute(name);
  for (const { name, value } of wanted.attributes) if (current.getAttribute(name) !== value) current.setAttribute(name, value);
}
