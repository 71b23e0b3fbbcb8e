/**
 * Streaming TBX reader: TBX v2 (`martif`, termEntry/langSet/tig|ntig), TBX v3 DCA and DCT
 * (`tbx`, conceptEntry/langSec/termSec) into dialect-independent TbxEntry objects.
 *
 * The input is parsed chunk by chunk with saxes; an entry is handed out as soon as its end tag is
 * read, so memory holds the entry being built plus the entries completed by one input slice, never
 * the file. DTDs are never processed: an internal subset (where entities would be declared) is
 * refused, and any entity other than the five XML ones and character references is an error, so no
 * external entity is ever resolved (no XXE). An external DTD reference (`<!DOCTYPE martif SYSTEM
 * "TBXcoreStructV02.dtd">`) is accepted, as real files carry it, and never fetched.
 *
 * The element handlers below share one parser state (open frames, entry, captured text), so the
 * stream and the entry parsing stay one class; bytes and vocabulary live beside it.
 */
import { SaxesParser, type SaxesTagPlain } from 'saxes';
import { ByteDecoder } from './tbx-byte-decoder.js';
import {
  CREATED_TRANSACTIONS,
  DCT_ELEMENT,
  ENTRY,
  GROUPS,
  LANGUAGE,
  normalizeStatus,
  POLYTERM_SOURCE_DESC,
  parseDate,
  TERM_GROUP,
} from './tbx-dialects.js';
import type {
  TbxEntry,
  TbxHeader,
  TbxLanguageSection,
  TbxTerm,
  TbxTransaction,
  TbxValue,
} from './tbx-model.js';

/** A file that is no readable TBX: malformed XML, a wrong root, a DTD subset or an undefined entity. */
export class TbxFormatError extends Error {
  constructor(
    readonly line: number,
    readonly reason: string,
  ) {
    super(`line ${line}: ${reason}`);
    this.name = 'TbxFormatError';
  }
}

export interface ReadTbxOptions {
  /** Called once, before the first entry, with what the root and header say about the file. */
  onHeader?: (header: TbxHeader) => void;
}

export type TbxChunk = string | Uint8Array;

/** Input is fed to the parser in slices of this many characters, which bounds the entry queue. */
const SLICE_CHARS = 64 * 1024;
/** Everything before the root element (a DOCTYPE with a huge subset...) is buffered by saxes: cap it. */
const MAX_PROLOG_CHARS = 1024 * 1024;

/** The entries of a TBX document, in file order, as they are parsed. Throws TbxFormatError for bad files. */
export async function* readTbx(
  source: AsyncIterable<TbxChunk> | Iterable<TbxChunk>,
  options: ReadTbxOptions = {},
): AsyncGenerator<TbxEntry> {
  const reader = new TbxStreamReader(options.onHeader);
  for await (const chunk of source) {
    const text = reader.decode(chunk);
    for (let start = 0; start < text.length; start += SLICE_CHARS) {
      reader.write(text.length <= SLICE_CHARS ? text : text.slice(start, start + SLICE_CHARS));
      for (const entry of reader.drain()) yield entry;
    }
  }
  reader.end();
  for (const entry of reader.drain()) yield entry;
}

type ValueHolder = { values: TbxValue[] };
type PendingTransaction = { type: string; date: string; responsibility: string };

/** What to do when an open element closes. */
type Frame =
  | { kind: 'skip' }
  | { kind: 'header' }
  | { kind: 'sourceDesc' }
  | { kind: 'headerText'; field: 'title' | 'sourceDesc' }
  | { kind: 'entry' }
  | { kind: 'lang' }
  | { kind: 'term' }
  | { kind: 'termText'; implicit: boolean }
  | { kind: 'group'; name: string; element: string | null; listType: string | null }
  | { kind: 'transacGrp'; tx: PendingTransaction; line: number }
  | { kind: 'transacPart'; tx: PendingTransaction; part: 'type' | 'date' | 'responsibility' }
  | {
      kind: 'value';
      holder: ValueHolder;
      category: string;
      element: string;
      target: string | undefined;
      line: number;
      component: string | undefined;
    }
  | { kind: 'discard' }
  | { kind: 'inline' };

class TbxStreamReader {
  private readonly parser = new SaxesParser({ xmlns: false, position: true });
  private readonly bytes = new ByteDecoder();
  private readonly stack: Frame[] = [];
  private queue: TbxEntry[] = [];
  private rootSeen = false;
  private prologChars = 0;

  private header: TbxHeader = { dialect: 'TBX_V2', sourceLang: null, title: null };
  private sourceDescText: string | null = null;
  private headerSent = false;

  private entry: TbxEntry | null = null;
  private entryLang: string | null = null;
  private lang: TbxLanguageSection | null = null;
  private term: TbxTerm | null = null;

  private capturing = false;
  /** Depths where xml:space was set, innermost last: `preserve` keeps a text's whitespace as written. */
  private readonly spaceModes: { depth: number; preserve: boolean }[] = [];
  private preserveSpace = false;
  /** Polyterm's own exports keep whitespace as written (POLYTERM_SOURCE_DESC). */
  private preserveByDefault = false;
  private text = '';
  /** The text of the last termComp of the open termCompList. */
  private component: string | null = null;

  constructor(private readonly onHeader: ((header: TbxHeader) => void) | undefined) {
    const parser = this.parser;
    parser.on('doctype', (doctype) => this.checkDoctype(doctype));
    parser.on('opentag', (tag) => this.open(tag));
    parser.on('closetag', () => this.close());
    parser.on('text', (text) => {
      if (this.capturing) this.text += text;
    });
    parser.on('cdata', (text) => {
      if (this.capturing) this.text += text;
    });
    parser.on('error', (error) => {
      throw new TbxFormatError(parser.line, describeXmlError(error.message));
    });
  }

  decode(chunk: TbxChunk): string {
    if (typeof chunk === 'string') return chunk;
    try {
      return this.bytes.decode(chunk);
    } catch (error) {
      throw this.decodingError(error, chunk);
    }
  }

  write(text: string): void {
    this.parser.write(text);
    if (!this.rootSeen) {
      this.prologChars += text.length;
      if (this.prologChars > MAX_PROLOG_CHARS) {
        throw new TbxFormatError(this.parser.line, 'no root element within the first 1 MB');
      }
    }
  }

  end(): void {
    let rest: string;
    try {
      rest = this.bytes.end();
    } catch (error) {
      throw this.decodingError(error, new Uint8Array());
    }
    if (rest) this.write(rest);
    this.parser.close();
    this.sendHeader();
  }

  drain(): TbxEntry[] {
    const ready = this.queue;
    this.queue = [];
    return ready;
  }

  private checkDoctype(doctype: string): void {
    // saxes enters the subset on a `[` outside quoted literals; look at the same thing.
    if (doctype.replace(/"[^"]*"|'[^']*'/g, '').includes('[')) {
      const startLine = this.parser.line - countNewlines(doctype);
      throw new TbxFormatError(
        startLine,
        'the DOCTYPE has an internal subset: DTDs and entity declarations are not allowed (never processed)',
      );
    }
  }

  private open(tag: SaxesTagPlain): void {
    const space = tag.attributes['xml:space'];
    if (space === 'preserve' || space === 'default') {
      this.spaceModes.push({ depth: this.stack.length, preserve: space === 'preserve' });
    }
    this.stack.push(this.frameFor(tag));
  }

  private frameFor(tag: SaxesTagPlain): Frame {
    const name = localName(tag.name);
    const attrs = tag.attributes;
    if (!this.rootSeen) return this.openRoot(name, attrs);
    if (this.capturing) return { kind: 'inline' };
    if (this.entry === null) return this.openOutsideEntry(name, attrs);

    if (LANGUAGE.has(name)) return this.openLanguage(attrs);
    if (TERM_GROUP.has(name) && this.lang) return this.openTerm(attrs);
    if (name === 'term' && this.lang) return this.openTermText(attrs);
    const group = GROUPS.get(name);
    if (group !== undefined) {
      if (name === 'termCompList') this.component = null;
      return {
        kind: 'group',
        name,
        element: group,
        listType: name === 'termCompList' ? (attrs.type ?? null) : null,
      };
    }
    if (name === 'transacGrp') {
      return { kind: 'transacGrp', tx: { type: '', date: '', responsibility: '' }, line: this.parser.line };
    }
    const top = this.stack.at(-1);
    if (top?.kind === 'transacGrp') return this.openTransactionPart(name, attrs, top.tx);
    return this.openValue(name, tag.name !== name, attrs, top);
  }

  private openRoot(name: string, attrs: Record<string, string>): Frame {
    if (name !== 'martif' && name !== 'tbx') {
      throw new TbxFormatError(
        this.parser.line,
        `the root element is <${name}>, not <martif> (TBX v2) or <tbx> (TBX v3)`,
      );
    }
    this.rootSeen = true;
    const style = attrs.style?.toLowerCase();
    const declaresModules = Object.keys(attrs).some((key) => key.startsWith('xmlns:'));
    this.header.dialect =
      name === 'martif'
        ? 'TBX_V2'
        : style === 'dct' || (style === undefined && declaresModules)
          ? 'TBX_V3_DCT'
          : 'TBX_V3_DCA';
    this.header.sourceLang = attrs['xml:lang'] || null;
    return { kind: 'skip' };
  }

  private openOutsideEntry(name: string, attrs: Record<string, string>): Frame {
    if (ENTRY.has(name)) {
      this.sendHeader();
      this.entry = {
        id: attrs.id ?? null,
        values: [],
        transactions: [],
        languages: [],
        line: this.parser.line,
      };
      this.entryLang = attrs['xml:lang'] || null;
      return { kind: 'entry' };
    }
    if (name === 'martifHeader' || name === 'tbxHeader') return { kind: 'header' };
    if (name === 'text') this.sendHeader();
    const inHeader = this.stack.some((frame) => frame.kind === 'header');
    if (inHeader && name === 'title' && this.header.title === null) {
      this.startCapture();
      return { kind: 'headerText', field: 'title' };
    }
    if (inHeader && name === 'sourceDesc') return { kind: 'sourceDesc' };
    if (this.stack.at(-1)?.kind === 'sourceDesc' && name === 'p' && this.sourceDescText === null) {
      this.startCapture();
      return { kind: 'headerText', field: 'sourceDesc' };
    }
    return { kind: 'skip' };
  }

  private openLanguage(attrs: Record<string, string>): Frame {
    // xml:lang is inherited in XML: a langSet without one is in the entry's or the file's language.
    const lang = attrs['xml:lang'] || this.entryLang || this.header.sourceLang || '';
    this.lang = { lang, values: [], terms: [] };
    this.entry!.languages.push(this.lang);
    return { kind: 'lang' };
  }

  private openTerm(attrs: Record<string, string>): Frame {
    this.term = { id: attrs.id ?? null, term: '', values: [], transactions: [], line: this.parser.line };
    this.lang!.terms.push(this.term);
    return { kind: 'term' };
  }

  private openTermText(attrs: Record<string, string>): Frame {
    // A <term> straight in a langSet (no tig) is read as a term group of its own.
    const implicit = this.term === null;
    if (implicit) {
      this.term = { id: null, term: '', values: [], transactions: [], line: this.parser.line };
      this.lang!.terms.push(this.term);
    }
    const term = this.term!;
    term.line = this.parser.line;
    if (attrs.id) term.id = attrs.id;
    this.startCapture();
    return { kind: 'termText', implicit };
  }

  private openTransactionPart(name: string, attrs: Record<string, string>, tx: PendingTransaction): Frame {
    this.startCapture();
    if (name === 'transac' || name === 'transactionType') return { kind: 'transacPart', tx, part: 'type' };
    if (name === 'date') return { kind: 'transacPart', tx, part: 'date' };
    if ((name === 'transacNote' && attrs.type === 'responsibility') || name === 'responsibility') {
      return { kind: 'transacPart', tx, part: 'responsibility' };
    }
    return { kind: 'discard' };
  }

  private openValue(
    name: string,
    prefixed: boolean,
    attrs: Record<string, string>,
    top: Frame | undefined,
  ): Frame {
    const holder: ValueHolder = this.term ?? this.lang ?? this.entry!;
    const group = top?.kind === 'group' ? top : null;
    let category: string;
    let element: string;
    if (!prefixed && attrs.type) {
      // DCA and v2: <descrip type="definition">, the category in the type attribute.
      category = attrs.type;
      element = name;
    } else if (!prefixed && group?.listType && name === 'termComp') {
      category = group.listType;
      element = name;
    } else if (!prefixed) {
      // <note>, and untyped elements of either style.
      category = name;
      element = name;
    } else {
      category = name;
      element = DCT_ELEMENT[name] ?? group?.element ?? (this.term ? 'termNote' : 'descrip');
    }
    // Values beside a termComp describe that component (one word), not the whole term.
    const inComponent =
      element !== 'termComp' &&
      this.stack.some(
        (frame) => frame.kind === 'group' && (frame.name === 'termCompGrp' || frame.name === 'termCompList'),
      );
    this.startCapture();
    return {
      kind: 'value',
      holder,
      category,
      element,
      target: attrs.target || undefined,
      line: this.parser.line,
      component: inComponent ? (this.component ?? '') : undefined,
    };
  }

  private close(): void {
    const frame = this.stack.pop();
    if (this.spaceModes.at(-1)?.depth === this.stack.length) this.spaceModes.pop();
    switch (frame?.kind) {
      case 'entry':
        this.queue.push(this.entry!);
        this.entry = null;
        this.entryLang = null;
        return;
      case 'lang':
        this.lang = null;
        return;
      case 'term':
        this.term = null;
        return;
      case 'termText':
        this.term!.term = this.takeText();
        if (frame.implicit) this.term = null;
        return;
      case 'value': {
        const raw = this.takeText();
        if (!raw && !frame.target) return;
        const value: TbxValue = {
          category: frame.category,
          element: frame.element,
          value: frame.category === 'administrativeStatus' ? normalizeStatus(raw) : raw,
          line: frame.line,
        };
        if (frame.target) value.target = frame.target;
        if (frame.element === 'termComp') this.component = raw;
        if (frame.component !== undefined) value.component = frame.component;
        frame.holder.values.push(value);
        return;
      }
      case 'transacPart':
        frame.tx[frame.part] = this.takeText();
        return;
      case 'transacGrp':
        this.addTransaction(frame.tx, frame.line);
        return;
      case 'discard':
        this.takeText();
        return;
      case 'headerText': {
        const text = this.takeText() || null;
        if (frame.field === 'title') this.header.title = text;
        else {
          this.sourceDescText = text;
          this.preserveByDefault = text === POLYTERM_SOURCE_DESC;
        }
        return;
      }
      case 'header':
        this.sendHeader();
        return;
      default:
        return;
    }
  }

  private addTransaction(tx: PendingTransaction, line: number): void {
    const type = tx.type.toLowerCase();
    const what = `The transaction "${tx.type}"${tx.date ? ` of ${tx.date}` : ''}`;
    if (!type) {
      this.notKept(line, `${what} has no type and is not kept`);
      return;
    }
    // A transacGrp in a descripGrp (or adminGrp...) dates that value, not the entry or term.
    if (this.stack.some((frame) => frame.kind === 'group')) {
      this.notKept(line, `${what} of a value (in a group) is not kept: only concepts and terms have dates`);
      return;
    }
    // The model has no langSec-level transactions: those of a langSec (without a term) are not kept.
    const holder = this.term ?? (this.lang ? null : this.entry);
    if (!holder) {
      this.notKept(line, `${what} of a language section is not kept`);
      return;
    }
    const date = parseDate(tx.date);
    if (tx.date && date === null) {
      this.notKept(line, `${what}: the date "${tx.date}" is not an ISO 8601 date`);
    }
    const transaction: TbxTransaction = {
      // Transaction types other than creation (check, approval...) still record a change of the entry.
      kind: CREATED_TRANSACTIONS.has(type) ? 'created' : 'changed',
      date,
      responsibility: tx.responsibility || null,
    };
    holder.transactions.push(transaction);
  }

  private notKept(line: number, message: string): void {
    if (!this.entry) return;
    this.entry.notKept ??= [];
    this.entry.notKept.push({ line, message });
  }

  private sendHeader(): void {
    if (this.headerSent || !this.rootSeen) return;
    this.headerSent = true;
    this.header.title ??= this.sourceDescText;
    this.onHeader?.({ ...this.header });
  }

  private startCapture(): void {
    this.capturing = true;
    this.preserveSpace = this.spaceModes.at(-1)?.preserve ?? this.preserveByDefault;
    this.text = '';
  }

  /**
   * The captured text. Pretty-printing breaks lines inside text, so XML whitespace runs are collapsed
   * (other spaces such as NBSP are kept), unless xml:space="preserve" asks to keep them as written, or
   * the file is Polyterm's own export.
   */
  private takeText(): string {
    this.capturing = false;
    const text = this.preserveSpace ? this.text : this.text.replace(/[ \t\r\n]+/g, ' ').trim();
    this.text = '';
    return text;
  }

  private decodingError(error: unknown, chunk: Uint8Array): unknown {
    if (!(error instanceof TypeError)) return error;
    const encoding = this.bytes.encoding ?? 'utf-8';
    const lossy = new TextDecoder(encoding).decode(chunk);
    const bad = lossy.indexOf('\uFFFD');
    const line = this.parser.line + countNewlines(bad < 0 ? lossy : lossy.slice(0, bad));
    return new TbxFormatError(line, `the file is not valid ${encoding.toUpperCase()}`);
  }
}

function localName(name: string): string {
  const colon = name.indexOf(':');
  return colon < 0 ? name : name.slice(colon + 1);
}

function countNewlines(text: string): number {
  let count = 0;
  for (let index = text.indexOf('\n'); index >= 0; index = text.indexOf('\n', index + 1)) count++;
  return count;
}

function describeXmlError(message: string): string {
  const reason = message.replace(/^\d+:\d+: /, '');
  if (reason.startsWith('undefined entity')) {
    return 'undefined entity: only &amp; &lt; &gt; &quot; &apos; and character references are allowed';
  }
  return `malformed XML: ${reason}`;
}
