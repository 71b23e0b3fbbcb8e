/**
 * Feedback over GraphQL: the procedures of /api/v4/feedback (same checks and limits). A page renders
 * its answers in one query, so nothing here loads per item. The file is sent and read over REST only
 * (POST and GET /api/v4/feedback/{id}/attachment).
 */
import { builder, defined } from '../../graphql/builder.js';
import { pageRef } from '../../graphql/common.graphql.js';
import { pageCost } from '../../graphql/cost.js';
import { FeedbackStatuses, FeedbackTargets } from './feedback.entity.js';
import type { FeedbackDto, FeedbackOptions } from './feedback.schema.js';

type Answer = FeedbackDto['answers'][number];
type Attachment = NonNullable<FeedbackDto['attachment']>;

const FeedbackStatusEnum = builder.enumType('FeedbackStatus', { values: FeedbackStatuses });
const FeedbackTargetEnum = builder.enumType('FeedbackTarget', { values: FeedbackTargets });

const AnswerRef = builder.objectRef<Answer>('FeedbackAnswer').implement({
  fields: (t) => ({
    id: t.exposeInt('id'),
    text: t.exposeString('text'),
    authorName: t.exposeString('authorName', { nullable: true }),
    date: t.float({ description: 'ms epoch', resolve: (answer) => answer.date }),
  }),
});

const AttachmentRef = builder.objectRef<Attachment>('FeedbackAttachment').implement({
  fields: (t) => ({
    fileName: t.exposeString('fileName'),
    contentType: t.exposeString('contentType', { description: 'sniffed from the bytes' }),
    size: t.float({ description: 'bytes', resolve: (file) => file.size }),
    url: t.exposeString('url', { description: 'REST path of the file (GET with the token)' }),
  }),
});

const FeedbackRef = builder.objectRef<FeedbackDto>('Feedback').implement({
  description: 'What a reader sent about a dictionary, a concept or a term, with the answers.',
  fields: (t) => ({
    id: t.exposeInt('id'),
    dictionaryId: t.exposeInt('dictionaryId'),
    dictionaryName: t.exposeString('dictionaryName'),
    target: t.field({ type: FeedbackTargetEnum, resolve: (f) => f.target }),
    conceptId: t.exposeInt('conceptId', { nullable: true }),
    termId: t.exposeInt('termId', { nullable: true }),
    targetLabel: t.exposeString('targetLabel', { nullable: true }),
    text: t.exposeString('text'),
    status: t.field({ type: FeedbackStatusEnum, resolve: (f) => f.status }),
    senderId: t.exposeInt('senderId', { nullable: true }),
    senderName: t.exposeString('senderName', { nullable: true }),
    senderEmail: t.exposeString('senderEmail', { nullable: true }),
    guest: t.exposeBoolean('guest'),
    attachment: t.field({ type: AttachmentRef, nullable: true, resolve: (f) => f.attachment }),
    answers: t.field({ type: [AnswerRef], description: 'oldest first', resolve: (f) => f.answers }),
    answersWithheld: t.exposeBoolean('answersWithheld', {
      description: 'the sender no longer reads the target: its name and the answers are withheld from them',
    }),
    created: t.float({ description: 'ms epoch', resolve: (f) => f.created }),
    changed: t.float({ description: 'ms epoch', resolve: (f) => f.changed }),
    closed: t.float({ nullable: true, description: 'ms epoch', resolve: (f) => f.closed }),
    mayManage: t.exposeBoolean('mayManage'),
  }),
});

const FeedbackPageRef = pageRef('FeedbackPage', FeedbackRef);

const FeedbackOptionsRef = builder.objectRef<FeedbackOptions>('FeedbackOptions').implement({
  fields: (t) => ({
    allowed: t.exposeBoolean('allowed'),
    askSender: t.exposeBoolean('askSender'),
    maxFileSize: t.float({ description: 'bytes', resolve: (o) => o.maxFileSize }),
    maxTextLength: t.exposeInt('maxTextLength'),
    manages: t.exposeBoolean('manages'),
  }),
});

builder.queryFields((t) => ({
  feedbackOptions: t.field({
    type: FeedbackOptionsRef,
    description: 'As GET /api/v4/feedback/options.',
    resolve: (_, __, { api }) => api.feedback.options({}),
  }),
  feedbackPage: t.field({
    type: FeedbackPageRef,
    complexity: pageCost,
    description: 'As GET /api/v4/feedback: the feedback of the dictionaries you administer, and your own.',
    args: {
      page: t.arg.int({ required: false }),
      size: t.arg.int({ required: false }),
      sort: t.arg.string({ required: false, description: 'created, changed or status, with ,ASC or ,DESC' }),
      status: t.arg({ type: FeedbackStatusEnum, required: false }),
      dictionaryId: t.arg.int({ required: false }),
      target: t.arg({ type: FeedbackTargetEnum, required: false }),
      conceptId: t.arg.int({ required: false }),
      mine: t.arg.boolean({ required: false }),
    },
    resolve: (_, args, { api }) =>
      api.feedback.list(
        defined({
          page: args.page ?? 0,
          size: args.size ?? undefined,
          sort: args.sort ?? undefined,
          status: args.status ?? undefined,
          dictionaryId: args.dictionaryId ?? undefined,
          target: args.target ?? undefined,
          conceptId: args.conceptId ?? undefined,
          mine: args.mine ?? false,
        }),
      ),
  }),
  feedback: t.field({
    type: FeedbackRef,
    description: 'As GET /api/v4/feedback/{id}.',
    args: { id: t.arg.int({ required: true }) },
    resolve: (_, { id }, { api }) => api.feedback.get({ id }),
  }),
}));

builder.mutationFields((t) => ({
  sendFeedback: t.field({
    type: FeedbackRef,
    description: 'As POST /api/v4/feedback: exactly one of dictionaryId, conceptId, termId.',
    args: {
      dictionaryId: t.arg.int({ required: false }),
      conceptId: t.arg.int({ required: false }),
      termId: t.arg.int({ required: false }),
      text: t.arg.string({ required: true }),
      senderName: t.arg.string({ required: false, description: 'guests only' }),
      senderEmail: t.arg.string({ required: false, description: 'guests only' }),
    },
    resolve: (_, args, { api }) =>
      api.feedback.create(
        defined({
          dictionaryId: args.dictionaryId ?? undefined,
          conceptId: args.conceptId ?? undefined,
          termId: args.termId ?? undefined,
          text: args.text,
          senderName: args.senderName ?? undefined,
          senderEmail: args.senderEmail ?? undefined,
        }),
      ),
  }),
  answerFeedback: t.field({
    type: FeedbackRef,
    description: 'As POST /api/v4/feedback/{id}/answers.',
    args: {
      id: t.arg.int({ required: true }),
      text: t.arg.string({ required: true }),
      close: t.arg.boolean({ required: false }),
    },
    resolve: (_, args, { api }) =>
      api.feedback.answer({ id: args.id, text: args.text, close: args.close ?? false }),
  }),
  closeFeedback: t.field({
    type: FeedbackRef,
    args: { id: t.arg.int({ required: true }) },
    resolve: (_, { id }, { api }) => api.feedback.close({ id }),
  }),
  reopenFeedback: t.field({
    type: FeedbackRef,
    args: { id: t.arg.int({ required: true }) },
    resolve: (_, { id }, { api }) => api.feedback.reopen({ id }),
  }),
  deleteFeedback: t.boolean({
    args: { id: t.arg.int({ required: true }) },
    resolve: async (_, { id }, { api }) => {
      await api.feedback.delete({ id });
      return true;
    },
  }),
}));
