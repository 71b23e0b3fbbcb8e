/**
 * Candidates (docs/projects.md, Candidates): proposed terms that are not concepts yet, added as JSON or
 * read from a TBX file or a spreadsheet by the existing readers, commented, and decided once — merged
 * into a concept, promoted to a new one, or rejected — with who and when.
 */

import type { EntityManager } from '@mikro-orm/postgresql';
import { type AuditUsers, auditInfo } from '../../shared/audit.js';
import { AppError, notFound } from '../../shared/errors.js';
import { toPage } from '../../shared/paging.js';
import type { Scope } from '../../shared/scope.js';
import { getConcept, updateConcept } from '../concept/concept.service.js';
import { recordProjectEvent } from '../events/project-events.js';
import { findDuplicates, suggestTerm } from '../search/search.service.js';
import { tbxLanguage } from '../tbx/tbx-languages.js';
import { User } from '../user/user.entity.js';
import type {
  CandidateDto,
  CandidateListInput,
  CandidateStatus,
  ImportCandidatesInput,
} from './project.schema.js';
import { asDate, managedProject, ms, type ProjectRow, readableProject } from './project-access.js';
import { readCandidateFile } from './project-import.js';

export interface CandidateInput {
  terms: { languageCode: string; term: string }[];
  definition?: string | null | undefined;
  note?: string | null | undefined;
  source?: string | null | undefined;
}

interface CandidateRow {
  id: string;
  project_id: number;
  terms: { languageCode: string; term: string }[];
  definition: string | null;
  note: string | null;
  source: string | null;
  status: CandidateStatus;
  concept_id: number | null;
  created_at: Date;
  created_by_id: number | null;
  decided_at: Date | null;
  decided_by_id: number | null;
  decision_comment: string | null;
}
interface CommentRow {
  id: string;
  candidate_id: string;
  user_id: number | null;
  text: string;
  created_at: Date;
}

/** Language tags as the dictionaries code them (en-GB → eng), so look-ups and promotion find them. */
const languageOf = (tag: string) => tbxLanguage(tag)?.languageCode ?? tag.trim().toLowerCase();

async function render(em: EntityManager, rows: readonly CandidateRow[]): Promise<CandidateDto[]> {
  if (rows.length === 0) return [];
  const comments = await em.execute<CommentRow[]>(
    'select * from project_candidate_comments where candidate_id = any(?::bigint[]) order by id',
    [`{${rows.map((row) => row.id).join(',')}}`],
  );
  const userIds = new Set<number>();
  for (const row of rows) {
    if (row.created_by_id) userIds.add(row.created_by_id);
    if (row.decided_by_id) userIds.add(row.decided_by_id);
  }
  const users: AuditUsers = new Map();
  if (userIds.size) {
    const found = await em.find(
      User,
      { id: { $in: [...userIds] } },
      { fields: ['id', 'username', 'fullName'], filters: false },
    );
    for (const user of found)
      users.set(user.id, { username: user.username, fullName: user.fullName ?? null });
  }
  return rows.map((row) => ({
    id: Number(row.id),
    projectId: row.project_id,
    terms: row.terms,
    definition: row.definition,
    note: row.note,
    source: row.source,
    status: row.status,
    conceptId: row.concept_id,
    created: auditInfo(row.created_by_id, asDate(row.created_at), users),
    decided: row.decided_at ? auditInfo(row.decided_by_id, asDate(row.decided_at), users) : null,
    decisionComment: row.decision_comment,
    comments: comments
      .filter((comment) => comment.candidate_id === row.id)
      .map((comment) => ({
        id: Number(comment.id),
        userId: comment.user_id,
        text: comment.text,
        createdAt: ms(comment.created_at)!,
      })),
  }));
}

export async function listCandidates(scope: Scope, input: CandidateListInput) {
  const { project } = await readableProject(scope, input.id);
  const params: unknown[] = [project.id, input.status ?? null, input.status ?? null];
  const where = 'project_id = ? and (?::text is null or status = ?)';
  const [count] = await scope.em.execute<{ n: number }[]>(
    `select count(*)::int as n from project_candidates where ${where}`,
    params,
  );
  const rows = await scope.em.execute<CandidateRow[]>(
    `select * from project_candidates where ${where} order by id limit ? offset ?`,
    [...params, input.size, input.page * input.size],
  );
  const request = { size: input.size, page: input.page, offset: input.page * input.size };
  return toPage(await render(scope.em, rows), count?.n ?? 0, request, null);
}

/** Inserts candidates in one statement per 5,000. */
export async function insertCandidates(
  em: EntityManager,
  scope: Scope,
  project: ProjectRow,
  candidates: readonly CandidateInput[],
) {
  for (let start = 0; start < candidates.length; start += 5_000) {
    const batch = candidates.slice(start, start + 5_000).map((candidate) => ({
      terms: candidate.terms.map((term) => ({
        languageCode: languageOf(term.languageCode),
        term: term.term,
      })),
      definition: candidate.definition ?? null,
      note: candidate.note ?? null,
      source: candidate.source?.slice(0, 300) ?? null,
    }));
    await em.execute(
      `insert into project_candidates (client_id, project_id, terms, definition, note, source, created_by_id)
       select ?, ?, x->'terms', x->>'definition', x->>'note', x->>'source', ? from jsonb_array_elements(?::jsonb) as x`,
      [scope.actor.clientId, project.id, scope.actor.userId, JSON.stringify(batch)],
    );
  }
  return candidates.length;
}

export async function addCandidates(scope: Scope, input: { id: number; candidates: CandidateInput[] }) {
  const project = await managedProject(scope, input.id);
  const added = await scope.em.transactional(async (em) => {
    const count = await insertCandidates(em, scope, project, input.candidates);
    await recordProjectEvent(em, scope, 'candidate.added', project.id, { count });
    return count;
  });
  return { added, errors: [] };
}

export async function importCandidates(scope: Scope, input: ImportCandidatesInput) {
  const project = await managedProject(scope, input.id);
  const { candidates, errors } = await readCandidateFile(input);
  const added = await scope.em.transactional(async (em) => {
    const count = await insertCandidates(em, scope, project, candidates);
    await recordProjectEvent(em, scope, 'candidate.added', project.id, { count });
    return count;
  });
  return { added, errors: errors.slice(0, 1000) };
}

/** A candidate of a project the caller may see (404 otherwise), with its project and the caller's role. */
async function readableCandidate(
  scope: Scope,
  candidateId: number,
  em: EntityManager = scope.em,
  lock = false,
) {
  const [row] = await em.execute<CandidateRow[]>(
    `select * from project_candidates where id = ? and client_id = ?${lock ? ' for update' : ''}`,
    [candidateId, scope.actor.clientId],
  );
  if (!row) throw notFound('Candidate', candidateId);
  const found = await readableProject(scope, row.project_id, em).catch(() => {
    throw notFound('Candidate', candidateId);
  });
  return { row, ...found };
}

export async function getCandidate(scope: Scope, candidateId: number) {
  const { row } = await readableCandidate(scope, candidateId);
  const [dto] = await render(scope.em, [row]);
  return dto!;
}

/** Terms of the project's dictionaries equal (folded) to one of the candidate's, in its language. */
export async function candidateDuplicates(scope: Scope, candidateId: number) {
  const { row, project } = await readableCandidate(scope, candidateId);
  const found = [];
  for (const dictionaryId of project.dictionary_ids) {
    for (const term of row.terms) {
      const hits = await findDuplicates(scope, {
        term: term.term,
        'dictionary-id': dictionaryId,
        'lang-code': term.languageCode,
      }).catch((error: unknown) => {
        // A dictionary whose sections the caller cannot read offers no duplicates.
        if (error instanceof AppError && error.code === 'NOT_FOUND') return { entries: [], total: 0 };
        throw error;
      });
      for (const hit of hits.entries) {
        found.push({
          conceptId: hit.conceptId,
          dictionaryId: hit.dictionaryId,
          termId: hit.id,
          term: hit.name,
          languageCode: hit.langCode,
          matchedTerm: term.term,
        });
      }
    }
  }
  return found;
}

export async function commentCandidate(scope: Scope, input: { candidateId: number; text: string }) {
  await scope.em.transactional(async (em) => {
    const { project } = await readableCandidate(scope, input.candidateId, em);
    await em.execute(
      'insert into project_candidate_comments (client_id, candidate_id, user_id, text) values (?, ?, ?, ?)',
      [scope.actor.clientId, input.candidateId, scope.actor.userId, input.text],
    );
    await recordProjectEvent(em, scope, 'candidate.commented', project.id, {
      candidateId: input.candidateId,
    });
  });
  return getCandidate(scope, input.candidateId);
}

/**
 * A decision, in one transaction with what it does: the candidate is locked and must be OPEN (409
 * otherwise), the caller must manage the project; `act` returns the concept it merged into or made.
 */
async function decide(
  scope: Scope,
  candidateId: number,
  status: CandidateStatus,
  comment: string | undefined,
  act: (scope: Scope, row: CandidateRow, project: ProjectRow) => Promise<number | null>,
) {
  await scope.em.transactional(async (em) => {
    const inner: Scope = { ...scope, em };
    const { row, project } = await readableCandidate(inner, candidateId, em, true);
    await managedProject(inner, project.id, em);
    if (row.status !== 'OPEN')
      throw new AppError('CONFLICT', `The candidate was ${row.status.toLowerCase()} already`);
    const conceptId = await act(inner, row, project);
    if (conceptId !== null) {
      await em.execute(
        `insert into project_entries (client_id, project_id, concept_id, dictionary_id, added_by_id)
         select client_id, ?, id, dictionary_id, ? from concepts where id = ? on conflict (project_id, concept_id) do nothing`,
        [project.id, scope.actor.userId, conceptId],
      );
    }
    await em.execute(
      `update project_candidates set status = ?, concept_id = ?, decided_at = now(), decided_by_id = ?, decision_comment = ?
        where id = ?`,
      [status, conceptId, scope.actor.userId, comment ?? null, candidateId],
    );
    await recordProjectEvent(em, scope, 'candidate.decided', project.id, { candidateId, status, conceptId });
  });
  return getCandidate(scope, candidateId);
}

export function mergeCandidate(
  scope: Scope,
  input: { candidateId: number; conceptId: number; addTerms: boolean; comment?: string | undefined },
) {
  return decide(scope, input.candidateId, 'MERGED', input.comment, async (inner, row, project) => {
    const concept = await getConcept(inner, input.conceptId, { format: 'FULL' });
    if (!concept.dictionaryId || !project.dictionary_ids.includes(concept.dictionaryId)) {
      throw new AppError(
        'BAD_REQUEST',
        `conceptId: concept ${input.conceptId} is not in a dictionary of the project`,
      );
    }
    const existing = concept.terms ?? [];
    const has = (term: { languageCode: string; term: string }) =>
      existing.some(
        (t) =>
          t.languageCode.toLowerCase() === term.languageCode &&
          t.name.toLowerCase() === term.term.toLowerCase(),
      );
    const missing = input.addTerms ? row.terms.filter((term) => !has(term)) : [];
    if (missing.length) {
      await updateConcept(
        inner,
        {
          id: concept.id,
          version: concept.version,
          format: 'ID',
          'with-comments': false,
          terms: [
            ...existing.map((t) => ({ id: t.id, name: t.name, languageCode: t.languageCode })),
            ...missing.map((t) => ({ name: t.term, languageCode: t.languageCode })),
          ],
        },
        true,
      );
    }
    return concept.id;
  });
}

export function promoteCandidate(
  scope: Scope,
  input: {
    candidateId: number;
    dictionaryId?: number | undefined;
    sectionOid?: string | undefined;
    comment?: string | undefined;
  },
) {
  return decide(scope, input.candidateId, 'PROMOTED', input.comment, async (inner, row, project) => {
    const dictionaryId = input.dictionaryId ?? project.dictionary_ids[0]!;
    if (!project.dictionary_ids.includes(dictionaryId)) {
      throw new AppError('BAD_REQUEST', `dictionaryId: dictionary ${dictionaryId} is not in the project`);
    }
    const termId = await suggestTerm(inner, {
      'dictionary-id': dictionaryId,
      ...(input.sectionOid ? { 'section-oid': input.sectionOid } : {}),
      conceptFields: {},
      terms: row.terms.map((term) => ({ term: term.term, langTag: term.languageCode })),
    } as Parameters<typeof suggestTerm>[1]);
    const [term] = await inner.em.execute<{ concept_id: number }[]>(
      'select concept_id from terms where id = ?',
      [termId],
    );
    return term!.concept_id;
  });
}

export function rejectCandidate(scope: Scope, input: { candidateId: number; comment?: string | undefined }) {
  return decide(scope, input.candidateId, 'REJECTED', input.comment, async () => null);
}
