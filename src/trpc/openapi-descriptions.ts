/**
 * Descriptions of the operations whose procedures carry only a summary, by operationId. Procedures that
 * say more in their own `meta.openapi.description` keep it; an entry here naming no operation, or an
 * operation left without any description, fails test/clients/openapi-document.test.ts.
 */
export const operationDescriptions: Record<string, string> = {
  'auth-logout':
    'Ends the session of the X-Auth-Token sent: the token is no longer valid on any surface. Answers 204.',
  'auth-switchClient':
    'Moves the session of the token to another client: one the user is mapped to, or any client for a system administrator. What the token may do is then decided in that client.',
  'system-features':
    'The features the server offers, as a page reads them before sign-in (the default client). Needs no token.',
  'system-clientFeatures':
    'The features as the client with this login name sees them. Needs no token; 404 when no such client exists.',
  'clients-generateNewApiKey':
    'Generates a new API key for the client and answers it once, in full; only its hash is stored, so later reads never show it again. The previous key stops working. System administrators only; 404 for an unknown client.',
  'users-passwordSettings':
    'The rule new passwords must follow (PASSWORD_REGEXP) and the message shown when one does not.',
  'users-assignClients':
    'Maps each listed user to the listed clients, replacing their previous mappings, so they may switch to them (POST /switch-client). System administrators only.',
  'users-assignClientsVariant':
    'The same call as PUT /users/assign-clients, under the path of other releases.',
  'users-logoutUser':
    'Ends every session of another user of the client: their tokens stop working at once. Administrators only; 404 for a user of another client.',
  'guests-get':
    'The guest settings of the client: whether guests may read without signing in, and as what. Administrators only.',
  'guests-update': 'Changes the guest settings of the client. Administrators only.',
  'roles-list': 'The roles of the client the token acts in.',
  'roles-forClient':
    'The roles used in the named client. The token must act in that client, unless it is a system administrator.',
  'permissionSchemes-byClient':
    'The permission schemes of the named client (the token must act in it, unless a system administrator).',
  'license-get': 'The licence the server runs under, or null when none is installed.',
  'dictionaries-dataCategories':
    'The data categories a field can stand for: those of TBX and the system ones, each with the levels it may be used at, its field type and its picklist values.',
  'dictionaries-list':
    'A page of the dictionaries the caller may read (a Page). `page` and `size` page through them, `sort` orders them, `name` and `name-eq` match the name ignoring case, `format` chooses the members.',
  'dictionaries-create':
    'Creates a dictionary with its languages and fields and one section named like it (201). Language codes are ISO 639 codes in two or three letters (stored as three) or custom codes. Administrators only; 422 when a dictionary of that name exists.',
  'dictionaries-rownum':
    'The 0-based position of the dictionary in the list GET /dictionaries answers for the same filters and sort; 0 when it is not in that list.',
  'dictionaries-get':
    'The dictionary with its structure: languages with variants, fields, sections. 404 when unknown, unreadable or of another client.',
  'dictionaries-update':
    'Makes the dictionary what is sent: its attributes, languages and fields (members left out are removed). `version` must be the stored one: 409 otherwise, and nothing changes. Administrators of the dictionary only.',
  'dictionaries-delete':
    'Deletes the dictionary: 204 with an empty text/plain body. Administrators of the dictionary only; 404 when unknown or of another client.',
  'fields-nextIncremental':
    'The value a new entry would get in an incremental field: one more than the highest value used in the dictionary.',
  'fields-validateIncremental':
    'Whether `value` is still unused in the incremental field within its dictionary (true) or already taken (false).',
  'fields-generatePicklist':
    'The distinct values entered in a field, proposed as picklist items; nothing is stored until the dictionary is updated with them.',
  'domains-getConfig':
    'How the domain tree of the dictionary is presented (the settings of its domain list).',
  'domains-setConfig':
    'Stores how the domain tree of the dictionary is presented. Administrators of the dictionary only.',
  'exportSettings-list':
    'A page of the saved export settings the caller may see: their own (PRIVATE) and the PUBLIC ones. Read-only.',
  'exportSettings-rownum':
    'The 0-based position of the export settings in the list GET /export-settings answers for the same filters and sort; 0 when not in that list.',
  'exportSettings-get':
    'One saved export setting. 404 when unknown, private to another user, or of another client.',
  'jobs-list':
    'The job tasks the caller started, newest first; with `all-users` an administrator sees every user’s of the client.',
  'jobs-get':
    'State, progress and, once done, the result of a job task: follow the jobTaskId of a 202 answer here until its state is final.',
  'ui-sessionData': 'The signed-in caller as a User: the session data the web application starts from.',
  'ui-topMenu': 'The entries of the administration menu the caller’s roles open, in order.',
  'profile-get': 'The caller’s own account as they may edit it. Guests have none: 403.',
  'concepts-find':
    'Finds a concept by exactly one of `oid`, `term-oid` or `term-id`; several `term-id` values answer an array. 404 when nothing readable matches.',
  'concepts-findByTermId': 'The concept a term belongs to. 404 when the term is unknown or not readable.',
  'concepts-findByTermOid':
    'The concept a term belongs to, by the term’s oid. 404 when unknown or not readable.',
  'concepts-findByTermIds':
    'The concepts of several terms (`term-ids`), each concept once, in the order of the terms.',
  'concepts-byOid': 'The concept with this oid. 404 when unknown or not readable.',
  'concepts-get':
    'The concept with its terms, fields, links and relations, as `format` asks; comments with `with-comments`. 404 when unknown, unreadable or of another client.',
  'concepts-delete':
    'Deletes the concept (soft): it disappears from reads and search, and undoing the deletion from its history restores it. 204.',
  'comments-list':
    'The comments on a concept (`entry-id`), or on a term with `field-level=TERM`, newest first. Readers of the concept may list them.',
  'comments-delete': 'Deletes a comment: its author or an administrator of the dictionary may. 204.',
  'stemming-languages':
    'The Snowball stemmers the server’s PostgreSQL offers and the language codes that use each by default.',
  'stemming-settings':
    'The stemming settings of a dictionary, per language that has any (algorithm, protected words, overrides).',
  'workflows-conceptStates':
    'The workflow entries of a concept, per the unit its workflow moves, with their states and the transitions the caller may fire.',
  'workflows-conceptTransitions':
    'Every move of the concept’s workflow entries, oldest first: who moved it, when, from which state to which, with the comment.',
  'workflows-inbox':
    'The workflow entries assigned to the caller, grouped by dictionary and language, the most recently moved first.',
  'workflows-statistics':
    'How many entries of a dictionary are in each state, per language; entries that never moved count in the initial state.',
  'workflows-entries': 'The concept ids of a dictionary’s entries in a given state (and language).',
  'workflows-mailSettings':
    'How the caller gets workflow e-mail: each message at once (digestHours null) or a digest every N hours.',
  'workflows-setMailSettings':
    'Chooses workflow e-mail at once (digestHours null) or as a digest every N hours, 1 to 720.',
};
