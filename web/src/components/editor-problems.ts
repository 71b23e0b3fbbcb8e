import { issuesAsText } from '../api';
import { type FieldProblems, problemsOf } from './concept-text';

/**
 * The server's validation message split for the whole editor: besides what `problemsOf` places (terms,
 * fields by name), the relations (`conceptRelations[2]: …`), the domains (`domainList: …`) and the
 * reference links of the concept (`refLinks: …`) and of each term (`terms[1].refLinks: …`), so each
 * shows beside its own control.
 */
export interface EditorProblems extends FieldProblems {
  relations?: Map<number, string[]>;
  domains?: string[];
  /** 'concept' or the index of the term, as a string. */
  links?: Map<string, string[]>;
  /** Other end to messages, for what names the concept rather than the index (`conceptRelations: concept 7 …`). */
  relationEnds?: Map<number, string[]>;
  /** Link text to messages, for what names the link rather than its entry (`reference link "x": …`). */
  linkTexts?: Map<string, string[]>;
  /** Term index to field oid to messages (`terms[1].fieldMap: Field "Note": …`). */
  termFields?: Map<number, Map<string, string[]>>;
  /** Index of the sent language tag to field oid to messages (`languageFields[0].fieldMap: Field "Usage": …`). */
  languageFields?: Map<number, Map<string, string[]>>;
}

export const noProblems: EditorProblems = { general: [], terms: new Map(), fields: new Map() };

const add = <K>(map: Map<K, string[]>, key: K, text: string) => map.set(key, [...(map.get(key) ?? []), text]);

export function editorProblemsOf(message: string, fieldNames: Map<string, string>): EditorProblems {
  const relations = new Map<number, string[]>();
  const links = new Map<string, string[]>();
  const relationEnds = new Map<number, string[]>();
  const linkTexts = new Map<string, string[]>();
  const termFields = new Map<number, Map<string, string[]>>();
  const languageFields = new Map<number, Map<string, string[]>>();
  const languageGeneral: string[] = [];
  const domains: string[] = [];
  const fieldOf = (text: string) =>
    [...fieldNames].find(([, name]) => text.startsWith(`Field "${name}"`))?.[0];
  const rest: string[] = [];
  for (const part of issuesAsText(message).split('; ')) {
    const relation = /^conceptRelations\[(\d+)\][^:]*: (.*)$/.exec(part);
    const termLink = /^terms\[(\d+)\]\.refLinks[^:]*: (.*)$/.exec(part);
    const conceptLink = /^refLinks[^:]*: (.*)$/.exec(part);
    const domain = /^domainList[^:]*: (.*)$/.exec(part);
    const termField = /^terms\[(\d+)\]\.fieldMap: (.*)$/.exec(part);
    const termFieldOid = termField ? fieldOf(termField[2]!) : undefined;
    const relationEnd = /^conceptRelations: (concept (\d+) .*)$/.exec(part);
    const linkText = /^reference link "(.*?)": .*$/.exec(part);
    const languageField = /^languageFields\[(\d+)\]\.fieldMap: (.*)$/.exec(part);
    const languageFieldOid = languageField ? fieldOf(languageField[2]!) : undefined;
    if (languageField && languageFieldOid) {
      const index = Number(languageField[1]);
      if (!languageFields.has(index)) languageFields.set(index, new Map());
      add(languageFields.get(index)!, languageFieldOid, languageField[2]!);
    } else if (part.startsWith('languageFields')) languageGeneral.push(part);
    else if (relation) add(relations, Number(relation[1]), relation[2]!);
    else if (relationEnd) add(relationEnds, Number(relationEnd[2]), relationEnd[1]!);
    else if (linkText) add(linkTexts, linkText[1]!, part);
    else if (termLink) add(links, termLink[1]!, termLink[2]!);
    else if (conceptLink) add(links, 'concept', conceptLink[1]!);
    else if (domain) domains.push(domain[1]!);
    else if (termField && termFieldOid) {
      const index = Number(termField[1]);
      if (!termFields.has(index)) termFields.set(index, new Map());
      add(termFields.get(index)!, termFieldOid, termField[2]!);
    } else rest.push(part);
  }
  const placed = rest.length ? problemsOf(rest.join('; '), fieldNames) : { ...noProblems };
  const general = [...placed.general, ...languageGeneral];
  return {
    ...placed,
    general,
    relations,
    relationEnds,
    links,
    linkTexts,
    domains,
    termFields,
    languageFields,
  };
}

/** The messages for one entry's links: those naming the entry, then those naming one of its links. */
export function linkProblems(
  problems: EditorProblems,
  entry: string,
  links: { text: string }[],
): string[] | undefined {
  const list = [
    ...(problems.links?.get(entry) ?? []),
    ...new Set(links.flatMap((link) => problems.linkTexts?.get(link.text) ?? [])),
  ];
  return list.length ? list : undefined;
}
