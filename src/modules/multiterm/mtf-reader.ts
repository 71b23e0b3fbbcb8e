/**
 * Streaming reader of MultiTerm XML (`<mtf><conceptGrp>…`, the export format of RWS MultiTerm) into the
 * TbxEntry objects the TBX import writes, so a MultiTerm file is imported by the same job, merge modes,
 * limits and error report as a TBX file (docs/exchange.md).
 *
 * Structure (RWS's MTF element reference): conceptGrp holds concept (the entry number), system, transacGrp,
 * descripGrp and languageGrp; languageGrp holds language (type: the index name, lang: `EN-US`, `en_us`),
 * descripGrp and termGrp; termGrp holds term, transacGrp and descripGrp. A descripGrp holds one descrip
 * (`type` is the termbase's field name) and may nest more descripGrps about the same thing. Files are often
 * UTF-16: the bytes are decoded as the TBX reader's are (BOM, declaration). As there, no DTD is processed.
 */
import { SaxesParser, type SaxesTagPlain } from 'saxes';
import { importedValue } from '../tbx/field-names.js';
import { ByteDecoder } from '../tbx/tbx-byte-decoder.js';
import { CREATED_TRANSACTIONS, parseDate } from '../tbx/tbx-dialects.js';
import type { TbxEntry, TbxHeader, TbxLanguageSection, TbxTerm, TbxValue } from '../tbx/tbx-model.js';
import { type ReadTbxOptions, type TbxChunk, TbxFormatError } from '../tbx/tbx-reader.js';
import type { MtfLevel } from './mtf-definition.js';
import type { MtfFieldTargets } from './mtf-field-mapping.js';
import { processStatusOf } from './mtf-vocabulary.js';

const SLICE_CHARS = 64 * 1024;
const MAX_PROLOG_CHARS = 1024 * 1024;

export interface ReadMtfOptions extends ReadTbxOptions {
  /** The field mapping (mtf-field-mapping.ts); absent: fields by their names. */
  fields?: MtfFieldTargets;
  /** Each descriptive field's value as the file names it (the preview lists them). */
  onField?: (name: string, level: MtfLevel, text: string) => void;
  /** Each index of an entry: its lang attribute and its name (type). */
  onLanguage?: (lang: string, name: string) => void;
  /** The termbase definition's multimedia fields (names in lower case): their links name files. */
  multimedia?: ReadonlySet<string>;
}

/** An xref `type` that says the link names a multimedia file (MultiTerm writes `Multimedia`). */
const MEDIA_TYPE = /multimedia|graphic|image|picture|media/i;

/** The entries of a MultiTerm XML document in file order. Throws TbxFormatError for a bad file. */
export async function* readMtf(
  source: AsyncIterable<TbxChunk> | Iterable<TbxChunk>,
  options: ReadMtfOptions = {},
): AsyncGenerator<TbxEntry> {
  const reader = new MtfStreamReader(options);
  for await (const chunk of source) {
    const text = reader.decode(chunk);
    for (let start = 0; start < text.length; start += SLICE_CHARS) {
      reader.write(text.slice(start, start + SLICE_CHARS));
      yield* reader.drain();
    }
  }
  reader.end();
  yield* reader.drain();
}

type Transaction = { type: string; responsibility: string; date: string; line: number };
type Capture = 'concept' | 'term' | 'descrip' | 'transac' | 'date' | 'system' | null;

class MtfStreamReader {
  private readonly parser = new SaxesParser({ xmlns: false, position: true });
  private readonly bytes = new ByteDecoder();
  private queue: TbxEntry[] = [];
  private rootSeen = false;
  private prologChars = 0;
  private depth = 0;

  private entry: TbxEntry | null = null;
  private lang: TbxLanguageSection | null = null;
  private term: TbxTerm | null = null;
  /** Open transacGrps: the innermost is the one transac and date belong to. */
  private readonly transactions: (Transaction & { depth: number })[] = [];
  /** Depth of the open descripGrps: their transacGrps date a value, which the model does not keep. */
  private readonly descripGroups: number[] = [];

  private capture: Capture = null;
  private captureAttrs: Record<string, string> = {};
  private text = '';
  /** The descrip's xref: its link and where its text starts and ends in the captured text. */
  private link: { clink?: string; ulink?: string; media?: boolean; from?: number; to?: number } = {};

  private readonly onHeader: ((header: TbxHeader) => void) | undefined;

  constructor(private readonly options: ReadMtfOptions) {
    this.onHeader = options.onHeader;
    const parser = this.parser;
    parser.on('doctype', (doctype) => {
      if (doctype.replace(/"[^"]*"|'[^']*'/g, '').includes('[')) {
        throw new TbxFormatError(parser.line, 'the DOCTYPE has an internal subset: DTDs are not allowed');
      }
    });
    parser.on('opentag', (tag) => this.open(tag));
    parser.on('closetag', (tag) => this.close(tag.name));
    parser.on('text', (text) => {
      if (this.capture) this.text += text;
    });
    parser.on('cdata', (text) => {
      if (this.capture) this.text += text;
    });
    parser.on('error', (error) => {
      throw new TbxFormatError(parser.line, `malformed XML: ${error.message.replace(/^\d+:\d+: /, '')}`);
    });
  }

  decode(chunk: TbxChunk): string {
    if (typeof chunk === 'string') return chunk;
    try {
      return this.bytes.decode(chunk);
    } catch {
      throw new TbxFormatError(this.parser.line, `the file is not valid ${this.bytes.encoding ?? 'UTF-8'}`);
    }
  }

  write(text: string): void {
    this.parser.write(text);
    if (this.rootSeen) return;
    this.prologChars += text.length;
    if (this.prologChars > MAX_PROLOG_CHARS) {
      throw new TbxFormatError(this.parser.line, 'no root element within the first 1 MB');
    }
  }

  end(): void {
    const rest = this.bytes.end();
    if (rest) this.write(rest);
    this.parser.close();
  }

  drain(): TbxEntry[] {
    const ready = this.queue;
    this.queue = [];
    return ready;
  }

  private open(tag: SaxesTagPlain): void {
    this.depth++;
    const { name, attributes: attrs } = tag;
    if (!this.rootSeen) {
      if (name !== 'mtf') {
        throw new TbxFormatError(
          this.parser.line,
          `the root element is <${name}>, not <mtf> (MultiTerm XML)`,
        );
      }
      this.rootSeen = true;
      this.onHeader?.({ dialect: 'TBX_V2', sourceLang: null, title: null });
      return;
    }
    if (this.capture) {
      // Mixed content of a descrip: an xref's link is kept with the value, its text as the value's text.
      if (name === 'xref' && this.link.from === undefined) {
        // Glink: MTF's link to a graphics file; an xref typed Multimedia: MultiTerm's multimedia field.
        this.link = {
          clink: attrs.Clink || undefined,
          ulink: attrs.Ulink || attrs.Glink || undefined,
          media: Boolean(attrs.Glink) || MEDIA_TYPE.test(attrs.type ?? ''),
          from: this.text.length,
        };
      }
      return;
    }
    const line = this.parser.line;
    switch (name) {
      case 'conceptGrp':
        this.entry = { id: null, values: [], transactions: [], languages: [], line };
        return;
      case 'languageGrp':
        if (!this.entry) return;
        this.lang = { lang: '', values: [], terms: [] };
        this.entry.languages.push(this.lang);
        return;
      case 'language':
        if (this.lang) this.lang.lang = attrs.lang ?? '';
        this.options.onLanguage?.(attrs.lang ?? '', attrs.type ?? '');
        return;
      case 'termGrp':
        if (!this.lang) return;
        this.term = { id: null, term: '', values: [], transactions: [], line };
        this.lang.terms.push(this.term);
        return;
      case 'descripGrp':
        this.descripGroups.push(this.depth);
        return;
      case 'transacGrp':
        this.transactions.push({ type: '', responsibility: '', date: '', line, depth: this.depth });
        return;
      case 'transac':
        if (!this.transactions.length) return;
        this.transactions.at(-1)!.type = attrs.type ?? '';
        this.startCapture('transac', attrs);
        return;
      case 'concept':
      case 'term':
      case 'descrip':
      case 'date':
      case 'system':
        if (this.entry) this.startCapture(name, attrs);
        return;
      default:
        return;
    }
  }

  private close(name: string): void {
    const depth = this.depth--;
    if (name === 'xref' && this.capture && this.link.to === undefined) this.link.to = this.text.length;
    if (this.capture && name === this.capture) this.finishCapture();
    switch (name) {
      case 'conceptGrp':
        if (this.entry) {
          splitIds(this.entry);
          for (const section of this.entry.languages) section.terms.forEach(splitIds);
          this.queue.push(this.entry);
        }
        this.entry = null;
        return;
      case 'languageGrp':
        this.lang = null;
        return;
      case 'termGrp':
        this.term = null;
        return;
      case 'descripGrp':
        this.descripGroups.pop();
        return;
      case 'transacGrp':
        if (this.transactions.at(-1)?.depth === depth) this.addTransaction(this.transactions.pop()!);
        return;
      default:
        return;
    }
  }

  private startCapture(kind: Exclude<Capture, null>, attrs: Record<string, string>): void {
    this.capture = kind;
    this.captureAttrs = attrs;
    this.text = '';
    // A descrip may carry the graphics link itself (MTF's Glink attribute), its text the file's name.
    this.link = kind === 'descrip' && attrs.Glink ? { ulink: attrs.Glink, media: true } : {};
  }

  private finishCapture(): void {
    const kind = this.capture;
    const text = squash(this.text);
    this.capture = null;
    const entry = this.entry;
    if (!entry) return;
    switch (kind) {
      case 'concept':
        entry.id = text || null;
        return;
      case 'term':
        if (this.term) this.term.term = text;
        return;
      case 'transac':
        this.transactions.at(-1)!.responsibility = text;
        return;
      case 'date':
        if (this.transactions.length) this.transactions.at(-1)!.date = text;
        return;
      case 'system': {
        const processStatus = this.captureAttrs.type === 'status' ? processStatusOf(text) : null;
        if (processStatus)
          entry.values.push({ category: 'processStatus', element: 'admin', value: processStatus });
        return;
      }
      case 'descrip':
        this.addValue(this.captureAttrs.type ?? '', text, this.text);
        return;
      default:
        return;
    }
  }

  /**
   * A descrip's value. An xref that is the whole value links it (Clink: a cross-reference to that entry,
   * Ulink: the value's link); an xref inside longer text leaves the text as the value, and a Clink there
   * is also kept as a cross-reference of its own.
   */
  private addValue(fieldName: string, text: string, rawText: string): void {
    const { clink, ulink, from, to } = this.link;
    const linkText = from === undefined ? text : squash(rawText.slice(from, to));
    const whole = linkText === text && (from !== undefined || this.link.media === true);
    const holder = this.term ?? this.lang ?? this.entry!;
    const line = this.parser.line;
    const name = fieldName.trim() || 'note';
    this.options.onField?.(name, this.term ? 'TERM' : this.lang ? 'LANGUAGE' : 'CONCEPT', text);
    const key = name.toLowerCase();
    const target = this.options.fields?.has(key) ? this.options.fields.get(key) : undefined;
    // A field the mapping leaves out is not imported at all, links included.
    if (target === null) return;
    if (clink && (whole || !text)) {
      holder.values.push({
        category: 'crossReference',
        element: 'ref',
        value: linkText,
        target: clink,
        line,
      });
      return;
    }
    if (!text && !ulink) return;
    const { category, value } = importedValue(name, text, target);
    const tbxValue: TbxValue = {
      category,
      element: category === 'originalId' ? 'admin' : 'descrip',
      value,
      line,
    };
    const media = Boolean(ulink) && (this.link.media || this.options.multimedia?.has(key));
    if (ulink && (whole || media)) {
      tbxValue.target = ulink;
      tbxValue.element = 'xref';
      // A multimedia value names a file of the package (an attachment of the field once imported).
      if (media) tbxValue.media = true;
      // A field of the termbase's own that is only a link is a link (TBX's externalCrossReference).
      else if (category === name) tbxValue.category = 'externalCrossReference';
    }
    holder.values.push(tbxValue);
    if (clink) {
      holder.values.push({
        category: 'crossReference',
        element: 'ref',
        value: linkText,
        target: clink,
        line,
      });
    }
  }

  private addTransaction(tx: Transaction): void {
    const entry = this.entry;
    if (!entry) return;
    const what = `The transaction "${tx.type}"${tx.date ? ` of ${tx.date}` : ''}`;
    // A transacGrp in a descripGrp dates that value; the model keeps dates of concepts and terms only.
    if (this.descripGroups.length > 0) return;
    const holder = this.term ?? (this.lang ? null : entry);
    if (!holder) return;
    const date = parseDate(tx.date);
    if (tx.date && date === null) {
      entry.notKept ??= [];
      entry.notKept.push({
        line: tx.line,
        message: `${what}: the date "${tx.date}" is not an ISO 8601 date`,
      });
    }
    holder.transactions.push({
      kind: CREATED_TRANSACTIONS.has(tx.type.toLowerCase()) ? 'created' : 'changed',
      date,
      responsibility: tx.responsibility || null,
    });
  }
}

/** XML whitespace runs collapsed: pretty-printing breaks lines inside text. */
const squash = (text: string) => text.replace(/[ \t\r\n]+/g, ' ').trim();

/**
 * Whether a file's first element is MultiTerm's `<mtf>`: read from its first bytes (after the XML
 * declaration, comments and a DOCTYPE), decoded as the readers decode them.
 */
export function isMultiTermXml(head: Uint8Array): boolean {
  const decoder = new ByteDecoder();
  let text: string;
  try {
    // A head cut inside a character decodes up to it; end() only when nothing was decoded yet.
    text = decoder.decode(head) || decoder.end();
  } catch {
    return false;
  }
  const body = text
    .replace(/^\uFEFF/, '')
    .replace(/<\?[\s\S]*?\?>/g, '')
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<!DOCTYPE[^>]*>/i, '');
  return /^\s*<mtf[\s>/]/.test(body);
}

/**
 * Polyterm's export writes two originalId values where an oid is no XML id (`concept-1`, then `17`): the
 * first is the id its cross-references (Clink) name, the second the oid. One value is the oid alone.
 */
function splitIds(holder: { id: string | null; values: TbxValue[] }): void {
  const ids = holder.values.filter((value) => value.category === 'originalId' && value.target === undefined);
  if (ids.length < 2) return;
  holder.id = ids[0]!.value;
  holder.values.splice(holder.values.indexOf(ids[0]!), 1);
}
