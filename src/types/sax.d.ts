/*
 * The part of sax (the streaming XML parser under xml-js, which tsdav brings) that calendar sync
 * uses, in its non-namespace mode; sax ships no types of its own.
 */
declare module 'sax' {
  export interface Tag {
    name: string;
    attributes: Record<string, string>;
    isSelfClosing: boolean;
  }

  export interface SAXParser {
    onopentagstart: (tag: { name: string }) => void;
    onattribute: (attribute: { name: string; value: string }) => void;
    onopentag: (tag: Tag) => void;
    onclosetag: (name: string) => void;
    ontext: (text: string) => void;
    oncdata: (cdata: string) => void;
    ondoctype: (doctype: string) => void;
    onerror: (error: Error) => void;
    write(chunk: string): SAXParser;
    close(): SAXParser;
  }

  export function parser(
    strict: boolean,
    options?: { trim?: boolean; normalize?: boolean; position?: boolean },
  ): SAXParser;
}
