/** Bytes of a TBX file to text, for the streaming reader (tbx-reader.ts). */

/**
 * Bytes to text: the encoding comes from a byte order mark, UTF-16 without one, the XML declaration
 * (`encoding="ISO-8859-1"`), else UTF-8. Invalid bytes throw (fatal) instead of becoming U+FFFD.
 */
export class ByteDecoder {
  private decoder: TextDecoder | undefined;
  private head: Uint8Array | undefined;

  get encoding(): string | undefined {
    return this.decoder?.encoding;
  }

  decode(chunk: Uint8Array): string {
    if (this.decoder) return this.decoder.decode(chunk, { stream: true });
    const bytes = this.head ? concatBytes(this.head, chunk) : chunk;
    // Hold bytes back until the XML declaration (or what stands for it) is complete.
    if (bytes.length < 256 && !latin1(bytes).includes('>')) {
      this.head = bytes;
      return '';
    }
    this.head = undefined;
    this.decoder = new TextDecoder(sniffEncoding(bytes), { fatal: true });
    return this.decoder.decode(bytes, { stream: true });
  }

  end(): string {
    if (this.decoder) return this.decoder.decode();
    if (!this.head) return '';
    const head = this.head;
    this.head = undefined;
    this.decoder = new TextDecoder(sniffEncoding(head), { fatal: true });
    return this.decoder.decode(head);
  }
}

function sniffEncoding(bytes: Uint8Array): string {
  const [b0, b1, b2, b3] = bytes;
  if (b0 === 0xff && b1 === 0xfe) return 'utf-16le';
  if (b0 === 0xfe && b1 === 0xff) return 'utf-16be';
  if (b0 === 0x3c && b1 === 0x00 && b2 === 0x3f && b3 === 0x00) return 'utf-16le';
  if (b0 === 0x00 && b1 === 0x3c && b2 === 0x00 && b3 === 0x3f) return 'utf-16be';
  if (b0 === 0xef && b1 === 0xbb && b2 === 0xbf) return 'utf-8';
  const declared = /^<\?xml[^>]*?\sencoding\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(latin1(bytes))?.[1];
  if (!declared || /^utf-?16$/i.test(declared)) return 'utf-8';
  try {
    return new TextDecoder(declared).encoding;
  } catch {
    return 'utf-8';
  }
}

function latin1(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, 256)).toString('latin1');
}

function concatBytes(a: Uint8Array, b: Uint8Array): Uint8Array {
  const joined = new Uint8Array(a.length + b.length);
  joined.set(a);
  joined.set(b, a.length);
  return joined;
}
