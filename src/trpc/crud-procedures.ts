import { z } from 'zod';
import type { AsyncOutcome } from '../modules/jobs/job-runner.js';
import { InvocationResultSchema } from '../shared/common.schema.js';
import { type Format, FormatSchema } from '../shared/format.js';
import { IdInput, IdListInput } from '../shared/ids.js';
import { queryBoolean } from '../shared/query.js';
import type { Scope } from '../shared/scope.js';
import { authedProcedure } from './trpc.js';

/** The use cases behind the spec's generic calls of one resource. */
export interface CrudService<List, Create, Patch, Out, PageOut> {
  list(scope: Scope, input: List): Promise<PageOut>;
  rownum(scope: Scope, id: number, input: List): Promise<number>;
  get(scope: Scope, id: number, format: Format, includeDeleted: boolean): Promise<Out>;
  create(scope: Scope, input: Create): Promise<Out>;
  /** `partial` is true for `PUT /{res}/partial/{id}`: absent members keep their value. */
  update(scope: Scope, input: Patch, partial: boolean): Promise<Out>;
  remove(scope: Scope, id: number): Promise<void>;
  removeAsync(scope: Scope, ids: number[]): Promise<AsyncOutcome>;
}

export interface CrudSpec<
  L extends z.ZodObject,
  C extends z.ZodType,
  U extends z.ZodType,
  P extends z.ZodType,
  O extends z.ZodType,
  G extends z.ZodType,
> {
  /** Collection path, e.g. `/views`. */
  path: `/${string}`;
  /** Singular noun for summaries, e.g. `view`. */
  noun: string;
  tags: string[];
  schemas: { list: L; page: G; output: O; create: C; update: U; patch: P };
  service: CrudService<z.output<L>, z.output<C>, z.output<P>, z.output<O>, z.output<G>>;
  /** Summaries that say more than the generic wording (who may, what is refused). */
  /** The procedure writes go through, when stricter than any signed-in caller (e.g. system administrators). */
  writeProcedure?: typeof authedProcedure;
  summaries?: Partial<Record<'list' | 'create' | 'update' | 'patch' | 'delete', string>>;
}

const writeErrors = [400, 401, 403, 404, 409, 422];

/**
 * tRPC types a resolver's result through conditional types that stay unresolved for a generic output
 * schema; the `.output()` parser still checks every answer, and callers see the schema's type.
 */
const checkedByOutputSchema = <T>(answer: Promise<T>) => answer as Promise<never>;
export const asyncNote =
  'Answers 200 with the InvocationResult when done within the async threshold (ASYNC_THRESHOLD_MS), otherwise 202 with jobTaskId while the job continues (GET /jobs/{id}).';

/** 202 for a job still running, set on the shared response holder because tRPC copies ctx. */
export function answerAsync(ctx: { response: { status?: number } }, outcome: AsyncOutcome) {
  if (!outcome.finished) ctx.response.status = 202;
  return outcome.body;
}

/** What the generic calls of one resource do, as the OpenAPI document says it (api-conventions.md). */
function crudDescriptions(path: string, noun: string) {
  const plural = path.slice(1);
  const unknown = `404 when no ${noun} has the id, or it belongs to another client.`;
  return {
    list: `A page of the ${plural} the caller may see (a Page: content, totalElements, totalPages...). \`page\` (from 0) and \`size\` page through them; \`sort\` names an attribute and direction (name,DESC); \`name\` keeps those whose name starts with it, \`name-eq\` those named so, ignoring case; \`format\` chooses the members of each (ID, SHORT, FULL, EDIT).`,
    rownum: `The 0-based position of the ${noun} in the list GET ${path} answers for the same filters and sort, so a client can open the page that holds it; 0 when it is not in that list.`,
    get: `The ${noun} with its members as \`format\` asks (FULL by default). A deleted one only with \`include-deleted\`, for administrators. ${unknown}`,
    create: `Creates a ${noun} from the body and answers it (201). 400 for a member that is missing or not valid (the body's issues name it), 403 without the right to, 422 when an equal ${noun} exists.`,
    update: `Replaces the ${noun}'s attributes with the body: members left out get their default (PUT ${path}/partial/{id} changes only what is sent). \`version\` must be the stored one: 409 otherwise, and nothing changes. ${unknown}`,
    patch: `Changes only the members sent; the others keep their value. \`version\` must be the stored one: 409 otherwise, and nothing changes. ${unknown}`,
    delete: `Deletes the ${noun}: 204 with an empty text/plain body. ${unknown}`,
  };
}

/**
 * The spec's generic calls (find, rownum, get, create, full and partial update, delete, async delete)
 * of one resource, as tRPC procedures published under `/api/v4{path}`. Spread the result into a router
 * beside the resource's own calls.
 */
export function crudProcedures<
  L extends z.ZodObject,
  C extends z.ZodType,
  U extends z.ZodType,
  P extends z.ZodType,
  O extends z.ZodType,
  G extends z.ZodType,
>(spec: CrudSpec<L, C, U, P, O, G>) {
  const { path, noun, tags, schemas, service } = spec;
  const plural = path.slice(1);
  const writer = spec.writeProcedure ?? authedProcedure;
  const descriptions = crudDescriptions(path, noun);
  return {
    list: authedProcedure
      .meta({
        openapi: {
          method: 'GET',
          path,
          tags,
          summary: spec.summaries?.list ?? `Find ${plural}`,
          description: descriptions.list,
        },
      })
      .input(schemas.list)
      .output(schemas.page)
      .query(({ ctx, input }) => checkedByOutputSchema(service.list(ctx.scope, input as z.output<L>))),

    rownum: authedProcedure
      .meta({
        openapi: {
          method: 'GET',
          path: `${path}/rownum/{id}`,
          tags,
          summary: `Row position of a ${noun}`,
          description: descriptions.rownum,
        },
      })
      .input(schemas.list.extend(IdInput.shape))
      .output(z.number().int())
      .query(({ ctx, input }) => service.rownum(ctx.scope, input.id as number, input as z.output<L>)),

    get: authedProcedure
      .meta({
        openapi: {
          method: 'GET',
          path: `${path}/{id}`,
          tags,
          summary: `Get a ${noun}`,
          description: descriptions.get,
        },
      })
      .input(IdInput.extend({ format: FormatSchema, 'include-deleted': queryBoolean().default(false) }))
      .output(schemas.output)
      .query(({ ctx, input }) =>
        checkedByOutputSchema(service.get(ctx.scope, input.id, input.format, input['include-deleted'])),
      ),

    create: writer
      .meta({
        openapi: {
          method: 'POST',
          path,
          tags,
          summary: spec.summaries?.create ?? `Create a ${noun}`,
          description: descriptions.create,
          errorResponses: [400, 401, 403, 404, 409, 422],
        },
        successStatus: 201,
      })
      .input(schemas.create)
      .output(schemas.output)
      .mutation(({ ctx, input }) => checkedByOutputSchema(service.create(ctx.scope, input as z.output<C>))),

    update: writer
      .meta({
        openapi: {
          method: 'PUT',
          path: `${path}/{id}`,
          tags,
          summary: spec.summaries?.update ?? `Update a ${noun}`,
          description: descriptions.update,
          errorResponses: writeErrors,
        },
      })
      .input(schemas.update)
      .output(schemas.output)
      // A full update is a patch that sends every member.
      .mutation(({ ctx, input }) =>
        checkedByOutputSchema(service.update(ctx.scope, input as z.output<P>, false)),
      ),

    patch: writer
      .meta({
        openapi: {
          method: 'PUT',
          path: `${path}/partial/{id}`,
          tags,
          summary: spec.summaries?.patch ?? `Change some attributes of a ${noun}`,
          description: descriptions.patch,
          errorResponses: writeErrors,
        },
      })
      .input(schemas.patch)
      .output(schemas.output)
      .mutation(({ ctx, input }) =>
        checkedByOutputSchema(service.update(ctx.scope, input as z.output<P>, true)),
      ),

    delete: writer
      .meta({
        openapi: {
          method: 'DELETE',
          path: `${path}/{id}`,
          tags,
          summary: spec.summaries?.delete ?? `Delete a ${noun}`,
          description: descriptions.delete,
        },
        successStatus: 204,
      })
      .input(IdInput)
      .output(z.void())
      .mutation(({ ctx, input }) => service.remove(ctx.scope, input.id)),

    deleteAsync: writer
      .meta({
        openapi: {
          method: 'DELETE',
          path: `${path}/async/{ids}`,
          tags,
          summary: `Delete several ${plural}`,
          description: asyncNote,
        },
      })
      .input(IdListInput)
      .output(InvocationResultSchema)
      .mutation(async ({ ctx, input }) => answerAsync(ctx, await service.removeAsync(ctx.scope, input.ids))),
  };
}
