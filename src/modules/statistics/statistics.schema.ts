import { z } from 'zod';
import { MAX_ID } from '../../shared/ids.js';
import { queryBoolean } from '../../shared/query.js';
import { UserLogItemSchema } from '../user/user.schema.js';

const allClients = queryBoolean()
  .default(false)
  .describe('every client of the installation; honoured for system administrators only');

export const StatisticsQuerySchema = z.object({ 'all-clients': allClients });
export type StatisticsQuery = z.infer<typeof StatisticsQuerySchema>;

export const MonthQuerySchema = z.object({
  year: z.number().int().min(1970).max(9999),
  month: z.number().int().min(1).max(12),
  'all-clients': allClients,
});
export type MonthQuery = z.infer<typeof MonthQuerySchema>;

const duration = z.string().describe('human readable, e.g. "3 h 12 min"');

export const SummarySchema = z.object({
  visits: z.number().int().describe('logins (API logins and guest sessions included)'),
  users: z.number().int().describe('distinct users who logged in'),
  apiUsers: z.number().int().describe('distinct users who logged in with the API key'),
  apiRequests: z.number().int().describe('requests made in API-login sessions'),
  totalTime: duration.describe('time spent in sessions, human readable, e.g. "3 h 12 min"'),
  installDate: z.number().int().nullable().describe('ms epoch: creation of the first client'),
  openFeedback: z
    .number()
    .int()
    .describe('feedback waiting for an answer (status OPEN) in live dictionaries (docs/feedback.md)'),
});
export type Summary = z.infer<typeof SummarySchema>;

export const MonthSummarySchema = z.object({
  month: z.number().int().describe('1 to 12'),
  year: z.number().int(),
  visits: z.number().int().describe('logins that started in the month'),
  users: z.number().int().describe('distinct users who logged in during the month'),
  apiVisits: z.number().int().describe('API logins among the visits'),
  apiRequests: z.number().int().describe('requests of the API sessions that started in the month'),
  totalTime: duration,
  averageVisits: z.string().describe('visits per day, e.g. "2.5"'),
  averageApiVisits: z.string().describe('API visits per day'),
  averageApiRequests: z.string().describe('API requests per day'),
  averageTime: duration.describe('session time per day, human readable'),
});
export type MonthSummary = z.infer<typeof MonthSummarySchema>;

/** The month call answers the summary with the month's details: every login of the month, newest first. */
export const MonthStatisticsSchema = MonthSummarySchema.extend({
  onlineUsers: z.array(UserLogItemSchema).describe('Month details: every login of the month, newest first'),
});
export type MonthStatistics = z.infer<typeof MonthStatisticsSchema>;

export const OnlineUserSchema = z.object({
  userLogin: z.string(),
  userId: z.number().int(),
  clientLogin: z.string(),
  loginTime: z.number().int().describe('ms epoch'),
  lastUsageTime: z.number().int().describe('ms epoch; written at most once a minute'),
  ipAddress: z.string().nullable(),
  partId: z.string().describe('last 4 symbols of the session id (JSESSIONID)'),
  apiLogin: z.boolean(),
  apiRequests: z.number().int(),
});
export type OnlineUser = z.infer<typeof OnlineUserSchema>;

export const DictionaryStatisticsQuerySchema = z.object({
  dictionaryId: z.number().int().positive().max(MAX_ID),
});
export type DictionaryStatisticsQuery = z.infer<typeof DictionaryStatisticsQuerySchema>;

export const WorkflowStateCountSchema = z.object({
  state: z.string().describe('state key'),
  name: z.string().describe('state name'),
  category: z.string().describe('DRAFT, REVIEW, APPROVED, REJECTED or RETIRED'),
  languageCode: z
    .string()
    .nullable()
    .describe('the language of the entries (LANGUAGE and TERM units); null for the CONCEPT unit'),
  count: z
    .number()
    .int()
    .describe('entries in the state (entries that never moved count in the initial state)'),
});

/** Counts of one dictionary over the sections the caller reads; `workflow` only while one is enabled. */
export const DictionaryStatisticsSchema = z.object({
  dictionaryId: z.number().int(),
  concepts: z.number().int().describe('live concepts in the sections the caller reads'),
  terms: z.number().int().describe('live terms of those concepts'),
  languages: z
    .array(z.object({ languageCode: z.string(), terms: z.number().int() }))
    .describe('terms per language'),
  workflow: z
    .object({
      workflowId: z.number().int(),
      unit: z.string().describe('CONCEPT, LANGUAGE or TERM: what an entry is'),
      states: z
        .array(WorkflowStateCountSchema)
        .describe('entries per state (and language), by state and language'),
    })
    .optional()
    .describe('entries per workflow state; absent while no workflow is enabled for the dictionary'),
  feedback: z
    .object({
      open: z.number().int().describe('waiting for an answer (OPEN)'),
      answered: z.number().int().describe('answered, not closed (ANSWERED)'),
    })
    .optional()
    .describe('feedback on the dictionary (docs/feedback.md); for those who manage it only, else absent'),
});
export type DictionaryStatistics = z.infer<typeof DictionaryStatisticsSchema>;
