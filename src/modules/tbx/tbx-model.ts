/**
 * One concept entry of a TBX file as the reader hands it to the importer (and as the exporter writes
 * it), independent of the TBX dialect (v2 martif, v3 DCA or DCT). Field values keep their TBX data
 * category name (`definition`, `termType`...), so mapping to dictionary fields happens in one place.
 */

/** A data category value: `<descrip type="definition">`, `<termNote type="termType">`, `<basic:definition>`... */
export interface TbxValue {
  /** The data category as TBX names it (`definition`, `partOfSpeech`, `administrativeStatus`...). */
  category: string;
  /** The element kind it came in (descrip, termNote, admin, note, xref, ref, transac...), for round trips. */
  element: string;
  value: string;
  /** `target` of xref/ref elements (crossReference, externalCrossReference). */
  target?: string;
  /** 1-based line of the element, when read from a file (for error reports). */
  line?: number;
  /** The termComp text a value of a termCompList component describes (not the whole term's). */
  component?: string;
  /** Set by a bundle import: the attachment this xGraphic/xSource names (attachment-import.ts). */
  attachmentKey?: string;
  /**
   * An ATTACHMENT value's field, as the export names it (MultiTerm XML writes the field's own name as
   * the descrip's type, where TBX writes xGraphic/xSource).
   */
  fieldName?: string;
  /**
   * A MultiTerm multimedia value (mtf-reader.ts): its target names a file of the termbase's package,
   * which the import stores as an attachment (mtf-media.ts).
   */
  media?: boolean;
}

/** A transacGrp: who did what when (`origination`/`creation` or `modification`). */
export interface TbxTransaction {
  kind: 'created' | 'changed';
  /** ISO date or date-time as written in the file, when it parses. */
  date: Date | null;
  responsibility: string | null;
}

export interface TbxTerm {
  /** The term's id attribute in the file, if any. */
  id: string | null;
  term: string;
  values: TbxValue[];
  transactions: TbxTransaction[];
  /** 1-based line of the term element (for error reports). */
  line: number;
}

export interface TbxLanguageSection {
  /** xml:lang as written (`en-US`, `dk`, `sf`...). */
  lang: string;
  values: TbxValue[];
  terms: TbxTerm[];
}

export interface TbxEntry {
  /** The entry's id attribute (termEntry/conceptEntry `id`), if any. */
  id: string | null;
  values: TbxValue[];
  transactions: TbxTransaction[];
  languages: TbxLanguageSection[];
  /** 1-based line of the entry element. */
  line: number;
  /** What the reader met but the model cannot hold (an import reports each as an error). */
  notKept?: { line: number; message: string }[];
}

/** What the file says about itself before the first entry. */
export interface TbxHeader {
  dialect: 'TBX_V2' | 'TBX_V3_DCA' | 'TBX_V3_DCT';
  /** xml:lang of the root. */
  sourceLang: string | null;
  /** The title or sourceDesc text, for naming a new dictionary. */
  title: string | null;
}
