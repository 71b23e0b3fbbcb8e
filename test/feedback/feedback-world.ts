/**
 * The feedback visibility suites' world (docs/feedback.md "Who does what"): a dictionary with a closed
 * section and a workflow whose unpublished states only one user reviews.
 */
import { expect } from 'vitest';
import { systemGroups } from '../access/access-helpers.js';
import type { TestApp } from '../helpers/app.js';
import type { RestClient } from '../helpers/rest.js';
import {
  createDictionary,
  createScheme,
  grant,
  groupWith,
  insertConcepts,
  insertTerm,
  loggedInUser,
  newTenant,
  uniqueSuffix,
} from '../helpers/structure.js';

/**
 * A dictionary everyone reads, managed by `manager` through its scheme (DICT_READ with DICT_UPDATE,
 * no role), with a section only `insider` reads, and a workflow whose first state is unpublished that
 * only `reviewer` reviews. The concept `open` has a published English term `valve`; `draft` has the
 * unpublished term `Geheimventil`; `secret` sits in the closed section.
 */
export async function world(t: TestApp, sysadmin: RestClient) {
  const { admin, tenant } = await newTenant(t, sysadmin);
  const groups = await systemGroups(admin);
  const manager = await loggedInUser(t, tenant);
  const insider = await loggedInUser(t, tenant);
  const reviewer = await loggedInUser(t, tenant);
  const reader = await loggedInUser(t, tenant);
  const managers = await groupWith(admin, [manager.id]);
  const insiders = await groupWith(admin, [insider.id]);
  const reviewers = await groupWith(admin, [reviewer.id]);
  const scheme = await createScheme(admin, [
    grant(groups.ALL_USERS.id, ['DICT_READ'], ['CONCEPT_UPDATE']),
    grant(managers.id, ['DICT_READ', 'DICT_UPDATE']),
  ]);
  const closed = await createScheme(admin, [grant(insiders.id, ['DICT_READ'])]);
  const dictionary = await createDictionary(admin, {
    languages: [{ code: 'eng' }, { code: 'deu' }],
    permissionSchemeId: scheme.id,
  });
  const secretSection = await admin.post<{ id: number }>('/sections', {
    name: `Secret ${uniqueSuffix()}`,
    dictionaryId: dictionary.id,
    permissionSchemeId: closed.id,
  });
  expect(secretSection.status, secretSection.text).toBe(201);
  const target = { clientId: tenant.id, dictionaryId: dictionary.id };
  const [open, draft] = await insertConcepts(t, { ...target, sectionId: dictionary.sections[0]!.id }, [
    {},
    {},
  ]);
  const [secret] = await insertConcepts(t, { ...target, sectionId: secretSection.body.id }, [{}]);
  const valve = await insertTerm(t, { ...target, conceptId: open! }, { name: 'valve', languageCode: 'eng' });
  const hiddenTerm = await insertTerm(
    t,
    { ...target, conceptId: draft! },
    { name: 'Geheimventil', languageCode: 'deu' },
  );
  const shownTerm = await insertTerm(
    t,
    { ...target, conceptId: draft! },
    { name: 'secret valve', languageCode: 'eng' },
  );
  const secretTerm = await insertTerm(
    t,
    { ...target, conceptId: secret! },
    { name: 'Blueprint', languageCode: 'eng' },
  );
  const workflow = await admin.post('/workflows', {
    name: `Review ${uniqueSuffix()}`,
    dictionaryId: dictionary.id,
    enabled: true,
    definition: {
      initialState: 'draft',
      states: [
        { key: 'draft', name: 'Draft', category: 'DRAFT', unpublished: true },
        { key: 'review', name: 'Review', category: 'REVIEW', unpublished: true },
        { key: 'ok', name: 'Approved', category: 'APPROVED' },
      ],
      transitions: [
        { key: 'submit', name: 'Submit', from: ['draft'], to: 'review', groupIds: [reviewers.id] },
        { key: 'approve', name: 'Approve', from: ['review'], to: 'ok', groupIds: [reviewers.id] },
      ],
    },
  });
  expect(workflow.status, workflow.text).toBe(201);
  // Everything starts as a draft: the reviewer publishes the English entries of `open` and `draft`.
  for (const conceptId of [open!, draft!]) {
    for (const [version, transition] of ['submit', 'approve'].entries()) {
      const fired = await reviewer.rest.post('/workflows/transitions', {
        conceptId,
        languageCode: 'eng',
        transition,
        version,
      });
      expect(fired.status, fired.text).toBe(200);
    }
  }
  return {
    admin,
    tenant,
    dictionary,
    manager,
    insider,
    reviewer,
    reader,
    insiders,
    secretSectionId: secretSection.body.id,
    open: open!,
    draft: draft!,
    secret: secret!,
    valve,
    hiddenTerm,
    shownTerm,
    secretTerm,
  };
}
