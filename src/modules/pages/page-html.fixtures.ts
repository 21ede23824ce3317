import { SAXParser } from 'sax';

/** The elements of a page written as text, as an HTML parser reads them (tag, attributes). */
export interface Element {
  name: string;
  attributes: Record<string, string>;
  text: string;
}

const VOID = new Set(['meta', 'link', 'input', 'br', 'img']);

/**
 * A page's elements, checking it is well formed: every element closed in order, no stray `<` (a
 * business's or client's text containing markup must come out as text, never as an element).
 */
export function elementsOf(html: string): Element[] {
  const parser = new SAXParser(false, { lowercase: true });
  const open: Element[] = [];
  const all: Element[] = [];
  parser.onerror = (e) => {
    throw e;
  };
  parser.onopentag = (tag) => {
    const element = {
      name: tag.name,
      attributes: tag.attributes as Record<string, string>,
      text: '',
    };
    all.push(element);
    if (!VOID.has(tag.name)) open.push(element);
  };
  parser.onclosetag = (name) => {
    if (VOID.has(name)) return;
    const last = open.pop();
    if (last?.name !== name) throw new Error(`</${name}> closes <${last?.name}>`);
  };
  parser.ontext = (text) => {
    for (const element of open) element.text += text;
  };
  parser.write(html).close();
  if (open.length > 0) throw new Error(`<${open[0].name}> is never closed`);
  return all;
}
