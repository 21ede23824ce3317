import { type SAXParser, type Tag, parser as saxParser } from 'sax';

/** XML namespaces of WebDAV, CalDAV and Apple's calendar server extensions. */
export const DAV = 'DAV:';
export const CALDAV = 'urn:ietf:params:xml:ns:caldav';
export const CALENDARSERVER = 'http://calendarserver.org/ns/';

/** `{DAV:}getetag`: an element's namespace and local name, as names are compared here. */
export const qualified = (namespace: string, local: string) => `{${namespace}}${local}`;

/** A property as read: the text in it (CDATA included), and the names of its child elements. */
export interface DavProperty {
  text: string;
  children: string[];
}

export interface DavResponse {
  /** Its first href, as written (usually a path). */
  href: string;
  /** Its own status line's code when it has one (a response without properties), else null. */
  status: number | null;
  /** The properties asked for that a 2xx propstat holds, by qualified name. */
  props: Map<string, DavProperty>;
}

/** An answer that is not a well-formed multistatus (or goes past the bounds below). */
export class MultistatusError extends Error {}

/* No multistatus nests deeper than 6; past these bounds an answer is only a way to make the parser
 * keep an open element or an attribute per few bytes it reads. */
const MAX_DEPTH = 32;
const MAX_ATTRIBUTES = 64;

const MULTISTATUS = qualified(DAV, 'multistatus');
const RESPONSE = qualified(DAV, 'response');
const HREF = qualified(DAV, 'href');
const STATUS = qualified(DAV, 'status');
const PROPSTAT = qualified(DAV, 'propstat');
const PROP = qualified(DAV, 'prop');

interface Frame {
  name: string;
  namespaces: Record<string, string>;
}

type Sink = 'href' | 'status' | 'propstat-status' | 'property';

/**
 * A WebDAV multistatus (RFC 4918 §13) read as it streams in (sax), each `<response>` handed to
 * `each` as it closes, keeping only its hrefs, statuses and the `wanted` properties; what `each`
 * throws ends the parse. Namespaces are resolved here: sax's own are quadratic in attributes.
 */
export async function parseMultistatus(
  text: AsyncIterable<string> | Iterable<string>,
  wanted: ReadonlySet<string>,
  each: (response: DavResponse) => void,
): Promise<void> {
  const stack: Frame[] = [];
  let response: DavResponse | undefined;
  let propstat: { ok: boolean; props: Map<string, DavProperty> } | undefined;
  let property: { name: string; value: DavProperty } | undefined;
  let sink: { kind: Sink; depth: number; text: string } | undefined;
  let attributes = 0;

  const xml: SAXParser = saxParser(true, { position: false });
  xml.onerror = (e) => {
    throw new MultistatusError(`not XML: ${e.message.split('\n')[0]}`);
  };
  xml.ondoctype = () => {
    throw new MultistatusError('a DOCTYPE in a multistatus');
  };
  xml.onopentagstart = () => (attributes = 0);
  xml.onattribute = () => {
    if (++attributes > MAX_ATTRIBUTES) throw new MultistatusError('too many attributes');
  };
  xml.onopentag = (tag) => {
    if (stack.length >= MAX_DEPTH) throw new MultistatusError('nested too deep');
    // xmlns is off (namespaces are resolved here, by frameOf): every tag is a plain Tag.
    const frame = frameOf(tag as Tag, stack[stack.length - 1]?.namespaces ?? {});
    const parent = stack[stack.length - 1]?.name;
    stack.push(frame);
    const depth = stack.length;
    if (depth === 1 && frame.name !== MULTISTATUS)
      throw new MultistatusError(`not a multistatus: ${frame.name}`);
    if (sink?.kind === 'property' && depth === sink.depth + 1)
      property?.value.children.push(frame.name);
    if (sink) return;
    if (depth === 2 && frame.name === RESPONSE) {
      response = { href: '', status: null, props: new Map() };
    } else if (response && depth === 3 && parent === RESPONSE) {
      if (frame.name === HREF && response.href === '') sink = { kind: 'href', depth, text: '' };
      else if (frame.name === STATUS) sink = { kind: 'status', depth, text: '' };
      else if (frame.name === PROPSTAT) propstat = { ok: true, props: new Map() };
    } else if (propstat && depth === 4 && frame.name === STATUS) {
      sink = { kind: 'propstat-status', depth, text: '' };
    } else if (propstat && depth === 5 && parent === PROP && wanted.has(frame.name)) {
      property = { name: frame.name, value: { text: '', children: [] } };
      sink = { kind: 'property', depth, text: '' };
    }
  };
  xml.ontext = xml.oncdata = (piece) => {
    if (sink) sink.text += piece;
  };
  xml.onclosetag = () => {
    const depth = stack.length;
    stack.pop();
    if (sink && depth === sink.depth) {
      const { kind, text } = sink;
      sink = undefined;
      if (kind === 'href' && response) response.href = text.trim();
      else if (kind === 'status' && response) response.status = statusCode(text);
      else if (kind === 'propstat-status' && propstat) {
        const status = statusCode(text);
        propstat.ok = status !== null && status >= 200 && status < 300;
      } else if (kind === 'property' && property && propstat) {
        propstat.props.set(property.name, { ...property.value, text });
        property = undefined;
      }
    } else if (depth === 3 && propstat && response) {
      if (propstat.ok) for (const [name, value] of propstat.props) response.props.set(name, value);
      propstat = undefined;
    } else if (depth === 2 && response) {
      const done = response;
      response = undefined;
      each(done);
    }
  };

  let started = false;
  for await (const piece of text) {
    started ||= piece.trim() !== '';
    xml.write(piece);
  }
  if (!started) throw new MultistatusError('an empty answer');
  xml.close();
}

/** The element's qualified name, in the namespaces it declares over its parent's. */
function frameOf(tag: Tag, inherited: Record<string, string>): Frame {
  let namespaces = inherited;
  for (const [attribute, value] of Object.entries(tag.attributes)) {
    if (attribute !== 'xmlns' && !attribute.startsWith('xmlns:')) continue;
    if (namespaces === inherited) namespaces = { ...inherited };
    namespaces[attribute === 'xmlns' ? '' : attribute.slice('xmlns:'.length)] = value;
  }
  const colon = tag.name.indexOf(':');
  const prefix = colon < 0 ? '' : tag.name.slice(0, colon);
  const namespace = namespaces[prefix];
  if (namespace === undefined && prefix !== '')
    throw new MultistatusError(`an undeclared prefix: ${prefix}`);
  return { name: qualified(namespace ?? '', tag.name.slice(colon + 1)), namespaces };
}

/** `HTTP/1.1 404 Not Found` → 404; null when it is not a status line. */
function statusCode(line: string): number | null {
  const match = /^\s*HTTP\/\d(?:\.\d)?\s+(\d{3})\b/i.exec(line);
  return match ? Number(match[1]) : null;
}
