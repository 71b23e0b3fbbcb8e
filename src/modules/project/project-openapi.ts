/** What each call does and who may call it, as the OpenAPI document says it. */
export const DESCRIPTIONS = {
  'GET /projects':
    'A Page of the projects the caller sees: coordinated, assigned (directly or through a group), or on dictionaries all read by the caller (client administrators: all). Filters: status (a comma list), dictionary-id, coordinator-id (an id or me), overdue, name (starts with), name-eq; sort: name, status, dueAt, created, changed (,ASC or ,DESC); format ID, SHORT or FULL.',
  'GET /projects/{id}':
    'The project with its counts and whether the caller manages it. Anyone who sees the project (managers, assignees, readers of all its dictionaries); 404 for others and across tenants.',
  'POST /projects':
    'Creates a DRAFT project. The caller must administer every dictionary named (403 for one only read, 404 for one not read); coordinators must be users of the client (400). transitions defaults to {VALIDATION: approve}.',
  'PUT /projects/{id}':
    "Replaces the project's members (those left out take their default); version required, 409 when stale. New dictionaries must be administered by the caller; entries of dictionaries left out leave the project. Managers only (coordinators, administrators of every dictionary of the project): 403 for those who only see the project, 404 for those who do not (and across tenants).",
  'PUT /projects/partial/{id}':
    'Changes the members sent; version required, 409 when stale. New dictionaries must be administered by the caller. Managers only (coordinators, administrators of every dictionary of the project): 403 for those who only see the project, 404 for those who do not (and across tenants).',
  'DELETE /projects/{id}':
    'Deletes the project (soft); its concepts stay in their dictionaries. Answers 204. Managers only (coordinators, administrators of every dictionary of the project): 403 for those who only see the project, 404 for those who do not (and across tenants).',
  'POST /projects/{id}/status':
    'Explicit moves: DRAFT to ONGOING or ABANDONED; ONGOING to DONE, SUSPENDED or ABANDONED; SUSPENDED to ONGOING or ABANDONED; DONE to ONGOING. Others, and stale versions, answer 409. Managers only (coordinators, administrators of every dictionary of the project): 403 for those who only see the project, 404 for those who do not (and across tenants).',
  'GET /projects/{id}/entries':
    "A Page of the project's concepts in sections the caller reads, by concept id, each with the languages of its live terms and its workflow state per project language. language-code and state narrow it. Anyone who sees the project (managers, assignees, readers of all its dictionaries); 404 for others and across tenants.",
  'POST /projects/{id}/entries':
    "Adds concepts by conceptIds, by filterId (what the filter keeps) or by savedQueryId (the caller's saved search, first 10,000 hits). Concepts outside the project's dictionaries, deleted, unreadable or already in are skipped. Managers only (coordinators, administrators of every dictionary of the project): 403 for those who only see the project, 404 for those who do not (and across tenants).",
  'POST /projects/{id}/entries/remove':
    'Takes concepts out of the project; they stay in their dictionary. Managers only (coordinators, administrators of every dictionary of the project): 403 for those who only see the project, 404 for those who do not (and across tenants).',
  'GET /concepts/{conceptId}/projects':
    'The projects that hold the concept and that the caller sees, by name. 404 when the caller cannot read the concept.',
  'GET /projects/{id}/candidates':
    "A Page of the project's candidate terms, oldest first, with comments and decisions; status narrows it. Anyone who sees the project (managers, assignees, readers of all its dictionaries); 404 for others and across tenants.",
  'POST /projects/{id}/candidates':
    "Adds up to 20,000 candidates, each with its terms per language (tags such as en or en-GB become the dictionaries' codes), a definition and a note. Managers only (coordinators, administrators of every dictionary of the project): 403 for those who only see the project, 404 for those who do not (and across tenants).",
  'POST /projects/{id}/candidates/import':
    "Reads candidates from a file with the importers' own readers: TBX (text) through the TBX reader, CSV (text) or XLSX (base64) through the spreadsheet reader and a column mapping (default: the one POST /spreadsheet/preview proposes). Entries without terms are listed in errors with their line; a file that cannot be read answers 400. Managers only (coordinators, administrators of every dictionary of the project): 403 for those who only see the project, 404 for those who do not (and across tenants).",
  'GET /project-candidates/{candidateId}':
    'The candidate with its comments and decision (who and when). Anyone who sees the project (managers, assignees, readers of all its dictionaries); 404 for others and across tenants.',
  'GET /project-candidates/{candidateId}/duplicates':
    "Terms of the project's dictionaries, in sections the caller reads (and workflow states the caller sees), whose folded form equals one of the candidate's terms in its language: the search module's duplicate look-up. Anyone who sees the project (managers, assignees, readers of all its dictionaries); 404 for others and across tenants.",
  'POST /project-candidates/{candidateId}/comments':
    'Adds a comment (who and when recorded). Anyone who sees the project (managers, assignees, readers of all its dictionaries); 404 for others and across tenants.',
  'POST /project-candidates/{candidateId}/merge':
    "Merges the candidate into a concept of the project's dictionaries: its terms the concept lacks are added as a concept update (its permissions, history and workflow rules apply), the concept joins the project, the decision is recorded. A decided candidate answers 409. Managers only (coordinators, administrators of every dictionary of the project): 403 for those who only see the project, 404 for those who do not (and across tenants).",
  'POST /project-candidates/{candidateId}/promote':
    "Creates a concept from the candidate's terms (CONCEPT_CREATE in the section, as POST /terms/suggestion) in a project dictionary, adds it to the project and records the decision. A decided candidate answers 409. Managers only (coordinators, administrators of every dictionary of the project): 403 for those who only see the project, 404 for those who do not (and across tenants).",
  'POST /project-candidates/{candidateId}/reject':
    'Records the rejection (who, when, comment). A decided candidate answers 409. Managers only (coordinators, administrators of every dictionary of the project): 403 for those who only see the project, 404 for those who do not (and across tenants).',
  'GET /projects/{id}/assignments':
    "The project's assignments with their progress, oldest first; status narrows them. Anyone who sees the project (managers, assignees, readers of all its dictionaries); 404 for others and across tenants.",
  'POST /projects/{id}/assignments':
    "Creates an OPEN assignment: a type, one of the project's languages or all (languageCode null), exactly one of assigneeUserId and assigneeGroupId (of the client: 400 otherwise), instructions and a due date. The first assignment moves a DRAFT project to ONGOING; SUSPENDED, DONE and ABANDONED projects answer 409. Managers only (coordinators, administrators of every dictionary of the project): 403 for those who only see the project, 404 for those who do not (and across tenants).",
  'GET /assignments':
    "The caller's assignments across the client's projects, directly or through a group, soonest due first (status: OPEN by default). Guests: 403.",
  'GET /assignments/{assignmentId}':
    'The assignment with its progress. Anyone who sees the project (managers, assignees, readers of all its dictionaries); 404 for others and across tenants.',
  'PUT /assignments/{assignmentId}':
    'Changes the type (not of a DONE one: 409), the assignee, instructions or due date (a new due date re-arms the overdue e-mail), or re-opens (OPEN) or cancels (CANCELLED) it; version required, 409 when stale. Managers only (coordinators, administrators of every dictionary of the project): 403 for those who only see the project, 404 for those who do not (and across tenants).',
  'DELETE /assignments/{assignmentId}':
    'Deletes the assignment. Answers 204. Managers only (coordinators, administrators of every dictionary of the project): 403 for those who only see the project, 404 for those who do not (and across tenants).',
  'POST /assignments/{assignmentId}/complete':
    "Assignees and managers: fires the transition the project names for the assignment's type on its entries of each dictionary, as a bulk transition by the caller (the workflow decides: 403 when the transition does not name the caller and the assignment stays open; entries failing conditions or required fields are skipped and listed; votes are cast). Every dictionary is checked before anything moves (a refusal in one moves nothing in any); then the moves and the assignment's DONE commit together, as a job: past the async threshold the answer is the assignment still OPEN with jobTaskId (GET /jobs/{id}), DONE when the job ends. Version required (409 when stale); a closed assignment, or a project not ONGOING, answers 409.",
  'GET /assignments/{assignmentId}/entries':
    "The assignment's entries (one per concept and language, in sections the caller reads) in concept order, with state and whether each is done for the type; done=false lists what is left, so the first is the next entry. Anyone who sees the project (managers, assignees, readers of all its dictionaries); 404 for others and across tenants.",
  'GET /projects/{id}/progress':
    'Entries, candidates per status, per language the entries, approved ones and those with terms, and every assignment with its progress, computed from the workflow states now. Anyone who sees the project (managers, assignees, readers of all its dictionaries); 404 for others and across tenants.',
  'GET /projects/{id}/statistics':
    "Entries by language and workflow state, totals and done per assignee, and the burn-down: one point a day (entries, and entries not yet approved or closed), today's recorded by this read. Anyone who sees the project (managers, assignees, readers of all its dictionaries); 404 for others and across tenants.",
} as const;
